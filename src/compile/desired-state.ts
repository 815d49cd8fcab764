/**
 * The desired state made of what compiled (PURE): programs, their sections and each section's
 * lessons in order, each lesson as it would be sent, and the digest a saved plan is checked by.
 */
import { createHash } from 'node:crypto';
import type { CourseConfig } from '../model/config.js';
import type { DesiredLesson, DesiredProgram, DesiredState } from '../model/desired.js';
import { inTocOrder } from './book-sections.js';
import type { CourseFrame } from './course-frame.js';
import type { LessonEntry } from './course-parts.js';
import { compareNatural } from './natural-order.js';
import { orderLessons } from './order-lessons.js';
import { sha256 } from '../model/sha256.js';

/**
 * The programs in path order, each section's lessons in the order section.yaml gives (or its
 * book's SUMMARY.md), a folder program's sections by path.
 */
export function desiredPrograms(frame: CourseFrame, lessonsBySection: ReadonlyMap<string, LessonEntry[]>): DesiredProgram[] {
  const { sections, programs, tocs, out } = frame;
  for (const [dir, entry] of sections) {
    if (!entry.section) continue;
    const ordered = entry.tocOrder ? inTocOrder(lessonsBySection.get(dir) ?? [], entry.tocOrder) : orderLessons(dir, lessonsBySection.get(dir) ?? [], entry.lessonOrder, out);
    entry.section.lessons = ordered.flatMap((e) => desiredLesson(e) ?? []);
  }
  const programList = [...programs.values()].flatMap((p) => p ?? []).sort((a, b) => compareNatural(a.path, b.path));
  // A book's chapters stay in SUMMARY.md order.
  for (const p of programList) if (!tocs.has(p.path)) p.sections.sort((a, b) => compareNatural(a.path, b.path));
  return programList;
}

/** The desired state of the programs compiled for `environment`. */
export function desiredState(config: CourseConfig, programs: DesiredProgram[], environment: string | undefined): DesiredState {
  const desired: DesiredState = { config, programs, digest: digestOf(programs) };
  if (environment !== undefined) desired.environment = environment;
  return desired;
}

function desiredLesson(entry: LessonEntry): DesiredLesson | undefined {
  const { identity, copied_from, acknowledge } = entry.compiled;
  const resolved = entry.resolved;
  if (!identity || !resolved) return undefined;
  const lesson: DesiredLesson = {
    key: identity.key,
    aliases: identity.aliases.map((a) => a.key),
    path: entry.source.path,
    fields: resolved.fields,
    digest: entry.source.digest,
  };
  const expanded = entry.source.expanded;
  // A saved plan must notice an edited include or variable as it does an edited file.
  // One-shot hashes (not a Hash object per lesson: this runs for every lesson of every plan).
  if (expanded) lesson.digest = sha256(`${entry.source.digest}\0${expanded.digest}`);
  if (resolved.assets.length > 0) {
    lesson.assets = resolved.assets;
    // A saved plan must notice an edited image: the lesson's digest covers the files it shows.
    let covered = lesson.digest;
    const assets = resolved.assets.length === 1 ? resolved.assets : [...resolved.assets].sort((x, y) => (x.path < y.path ? -1 : 1));
    for (const a of assets) covered += `\0${a.path}\0${a.digest}`;
    lesson.digest = sha256(covered);
  }
  if (entry.build) lesson.build = entry.build;
  if (entry.known) lesson.unchanged = true;
  if (resolved.links.length > 0) lesson.links = resolved.links;
  if (copied_from !== undefined) lesson.copied_from = copied_from;
  if (acknowledge !== undefined) lesson.acknowledge = acknowledge;
  return lesson;
}

/** sha256 over everything a saved plan depends on in the repo: program ids, lesson identity, place and content. */
function digestOf(programs: DesiredProgram[]): string {
  const hash = createHash('sha256');
  for (const p of programs) {
    hash.update(`program\0${p.id}\0${p.path}\n`);
    for (const s of p.sections) {
      const ref = 'id' in s.ref ? `id\0${s.ref.id}` : `name\0${s.ref.name}`;
      // One update per section: the same bytes as one per lesson, fewer calls into the hash.
      hash.update(s.lessons.map((l, i) => `lesson\0${l.key}\0${l.path}\0${l.digest}\0${i}\0${ref}\0${l.aliases.join(',')}\n`).join(''));
    }
  }
  return hash.digest('hex');
}
