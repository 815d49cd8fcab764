/**
 * Promotion (docs/environments.md#promotion), PURE: an environment with `promote_from` applies
 * only the content its source environment applied last. Content is what the author wrote, not
 * what one school receives: each lesson's file, the files it references, its inherited lesson
 * settings and its place in the repo; never ids, addresses or vars, which differ by design.
 */
import { createHash } from 'node:crypto';
import type { DesiredLesson, DesiredState } from '../model/desired.js';

/** The content of a repo as an environment applied it: per lesson key, 16 hex; and all of it. */
export interface AppliedContent {
  digest: string;
  lessons: Record<string, string>;
}

/** A lesson whose content the source environment has not applied, and why. */
export interface NotPromoted {
  path: string;
  why: string;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The inherited settings a lesson's content depends on, without the per-school addresses its build settings also hold. */
function settingsOf(lesson: DesiredLesson): unknown {
  if (lesson.build) return (JSON.parse(lesson.build.settings) as { defaults?: unknown }).defaults ?? null;
  const { body: _body, description: _description, ...fields } = lesson.fields;
  return fields;
}

/**
 * What a lesson's own text is: with its build inputs, the file's bytes, the files it includes
 * and the names of the vars it uses, never their values (an environment's vars differ by
 * design, and a lesson known from the state and one compiled now give the same); without them
 * (a lesson compiled with a diagnostic), its digest.
 */
function textOf(lesson: DesiredLesson): unknown {
  const build = lesson.build;
  if (!build) return lesson.digest;
  return [build.file, build.includes?.map((i) => `${i.path}\0${i.digest}`) ?? [], build.vars?.map((v) => v.name) ?? []];
}

/** The content of every lesson of `desired`. */
export function contentOf(desired: DesiredState): AppliedContent {
  const lessons: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const program of desired.programs) {
    for (const section of program.sections) {
      section.lessons.forEach((l, i) => {
        const deps = l.build?.deps.map((d) => `${d.path}\0${d.digest}`) ?? [];
        lessons[l.key] = sha(JSON.stringify([program.path, section.path, i, l.path, textOf(l), deps, settingsOf(l), l.aliases])).slice(0, 16);
      });
    }
  }
  const digest = sha(Object.keys(lessons).sort().map((k) => `${k}\0${lessons[k]}`).join('\n'));
  return { digest, lessons };
}

/**
 * The lessons whose content differs from what the source environment `from` last applied
 * (`applied`: undefined when it never completed an apply): changed, new, or removed from the repo.
 */
export function notPromoted(desired: DesiredState, now: AppliedContent, applied: AppliedContent | undefined, from: string): NotPromoted[] {
  if (applied !== undefined && applied.digest === now.digest) return [];
  const out: NotPromoted[] = [];
  for (const program of desired.programs) {
    for (const section of program.sections) {
      for (const l of section.lessons) {
        const before = applied?.lessons[l.key];
        if (before === now.lessons[l.key]) continue;
        out.push({ path: l.path, why: before === undefined ? `not applied to ${from}` : `changed since ${from} applied it` });
      }
    }
  }
  for (const key of Object.keys(applied?.lessons ?? {}).sort()) {
    if (!(key in now.lessons)) out.push({ path: key, why: `removed from the repo, still in ${from}'s last apply` });
  }
  return out;
}
