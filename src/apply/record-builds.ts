/**
 * After an apply, record how each lesson the school now holds as the repo says was built: its
 * file's blob id, its digest, the compiler and what it references (state `blob`, `digest`,
 * `compiler`, `deps`, and the aliases, acknowledged rules and warnings of its own HTML a skipped
 * lesson still needs). Only for lessons that compiled with no diagnostic but such warnings, and
 * whose last-applied fields are exactly the repo's, so the next plan may take an unchanged
 * lesson from state without rendering it. Lessons that got no call are recorded too: an existing
 * school gets its digests on its next apply. One state write, and none when nothing changed.
 */
import pLimit from 'p-limit';
import type { DesiredLesson, DesiredState } from '../model/desired.js';
import { depRecord, inputsRecord, lessonDigest } from '../compile/lesson-digest.js';
import { diffFields } from '../plan/diff-fields.js';
import { blobIdOfFile } from '../source/blob-id.js';
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import { placesOf } from '../compile/known-lessons.js';
import type { LessonState } from '../model/state/schema.js';
import type { StateStore } from '../state/state-store.js';
import { BUILD_RECORD_FIELDS, withoutBuildRecord, type BuildRecord } from '../state/lesson-record.js';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The build record of `lesson` when `entry` holds exactly what it compiles to; undefined otherwise. */
function buildRecordOf(lesson: DesiredLesson, entry: LessonState | undefined, compiler: string, placeOf: (path: string) => string | undefined): Omit<BuildRecord, 'blob'> | undefined {
  if (!lesson.build || !entry || entry.id === null || entry.uncertain || entry.path !== lesson.path) return undefined;
  if (diffFields(entry.applied, lesson.fields).length > 0) return undefined;
  const record: Omit<BuildRecord, 'blob'> = { digest: lessonDigest(lesson.path, lesson.build, placeOf), compiler };
  if (lesson.build.deps.length > 0) record.deps = lesson.build.deps.map(depRecord);
  const inputs = inputsRecord(lesson.build);
  if (inputs) record.inputs = inputs;
  if (lesson.aliases.length > 0) record.aliases = lesson.aliases;
  if (lesson.acknowledge && lesson.acknowledge.length > 0) record.acknowledge = lesson.acknowledge;
  if (lesson.build.warnings) record.warnings = lesson.build.warnings;
  return record;
}

/** The blob id of each call's file as the plan read it (sync/call-sources.ts), by path. */
export function blobsOfCalls(plan: Plan): Map<string, string | null> {
  return new Map(plan.changes.filter(isCall).flatMap((step) => (step.source ? [[step.source.path, step.source.after] as const] : [])));
}

/**
 * Record the builds of the lessons of `desired` (the repo as it was applied, links filled) in
 * the state; `skip` names lessons sent with a link still pending; `blobs` the blob ids the plan
 * already read (blobsOfCalls): only the other files are read again. Returns how many were recorded.
 */
export async function recordBuilds(store: StateStore, dir: string, desired: DesiredState, compiler: string, skip: ReadonlySet<string> = new Set(), blobs: ReadonlyMap<string, string | null> = new Map()): Promise<number> {
  const placeOf = placesOf(store.data);
  const limit = pLimit(16);
  const found = await Promise.all(
    desired.programs.flatMap((p) =>
      p.sections.flatMap((s) =>
        s.lessons.map((lesson) =>
          limit(async () => {
            const entry = store.data.lessons[lesson.key];
            const record = skip.has(lesson.key) ? undefined : buildRecordOf(lesson, entry, compiler, placeOf);
            if (!record || !entry) return undefined;
            // The same digest is the same file bytes: its blob id is the one recorded.
            const blob = entry.digest === record.digest && entry.blob !== undefined ? entry.blob : (blobs.get(lesson.path) ?? (await blobIdOfFile(dir, lesson.path)));
            const full: BuildRecord = blob === null ? record : { ...record, blob };
            return BUILD_RECORD_FIELDS.every((f) => same(entry[f], full[f])) ? undefined : { key: lesson.key, record: full };
          }),
        ),
      ),
    ),
  );
  const changes = found.filter((c) => c !== undefined);
  if (changes.length === 0) return 0;
  await store.update((d) => {
    for (const { key, record } of changes) {
      const entry = d.lessons[key];
      if (!entry) continue;
      d.lessons[key] = { ...withoutBuildRecord(entry), ...record };
    }
  });
  return changes.length;
}
