/**
 * The desired state made of what compiled (PURE): programs, their sections and each section's
 * lessons in order, each lesson as it would be sent, and the digest a saved plan is checked by.
 */
import { createHash } from 'node:crypto';
import type { CourseConfig } from '../model/config.js';
import type { DesiredLesson, DesiredProgram, DesiredSection, DesiredState } from '../model/desired.js';
import { inTocOrder } from './book-sections.js';
import type { CourseFrame } from './course-frame.js';
import type { LessonEntry } from './course-parts.js';
import { compareNatural } from './natural-order.js';
import { orderLessons } from './order-lessons.js';
import { sha256 } from '../model/sha256.js';

/**
 * The programs in path order, each section's lessons in the order section.yaml gives (or its
 * book's SUMMARY.md), a folder program's sections by path; and the digest a saved plan is
 * checked by.
 */
export function desiredPrograms(frame: CourseFrame, lessonsBySection: ReadonlyMap<string, LessonEntry[]>): { programs: DesiredProgram[]; digest: string } {
  const { sections, programs, tocs, out } = frame;
  const lines = new Map<DesiredSection, string>();
  for (const [dir, entry] of sections) {
    if (!entry.section) continue;
    const ordered = (entry.tocOrder ? inTocOrder(lessonsBySection.get(dir) ?? [], entry.tocOrder) : orderLessons(dir, lessonsBySection.get(dir) ?? [], entry.lessonOrder, out)).filter(isDesired);
    lines.set(entry.section, digestLines(entry.section, ordered));
    if (ordered.length > 0 && ordered.every((e) => e.known)) settle(entry.section, ordered);
    else entry.section.lessons = ordered.map(desiredLesson);
  }
  const programList = [...programs.values()].flatMap((p) => p ?? []).sort((a, b) => compareNatural(a.path, b.path));
  // A book's chapters stay in SUMMARY.md order.
  for (const p of programList) if (!tocs.has(p.path)) p.sections.sort((a, b) => compareNatural(a.path, b.path));
  return { programs: programList, digest: digestOf(programList, lines) };
}

/** The desired state of the programs compiled for `environment`, and its digest (desiredPrograms). */
export function desiredState(config: CourseConfig, { programs, digest }: { programs: DesiredProgram[]; digest: string }, environment: string | undefined): DesiredState {
  const desired: DesiredState = { config, programs, digest };
  if (environment !== undefined) desired.environment = environment;
  return desired;
}

/** A lesson that compiled and resolved: one of the desired state's. */
type DesiredEntry = LessonEntry & { compiled: { identity: NonNullable<LessonEntry['compiled']['identity']> }; resolved: NonNullable<LessonEntry['resolved']> };
const isDesired = (entry: LessonEntry): entry is DesiredEntry => entry.compiled.identity !== undefined && entry.resolved !== undefined;

/**
 * A section whose every lesson is known unchanged from the state: `settled` holds their keys in
 * order, and the lessons themselves are made on first access. A plan asks for none of them (the
 * diff, the links and the learner impact take what they need from `settled`).
 */
function settle(section: DesiredSection, ordered: readonly DesiredEntry[]): void {
  section.settled = { keys: ordered.map((e) => e.compiled.identity.key) };
  let lessons: DesiredLesson[] | undefined;
  Object.defineProperty(section, 'lessons', {
    get: () => (lessons ??= ordered.map(desiredLesson)),
    set: (value: DesiredLesson[]) => {
      lessons = value;
    },
    enumerable: true,
    configurable: true,
  });
}

function desiredLesson(entry: DesiredEntry): DesiredLesson {
  const { identity, copied_from, acknowledge } = entry.compiled;
  const resolved = entry.resolved;
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

/**
 * Each lesson's line of the digest: its key, path, what its content is made of (its file, its
 * includes and variables, the files it shows), its place in order, its section and aliases. Made
 * from the entries, so a settled section's lessons need not be made for it.
 */
function digestLines(section: DesiredSection, ordered: readonly DesiredEntry[]): string {
  const ref = 'id' in section.ref ? `id\0${section.ref.id}` : `name\0${section.ref.name}`;
  let text = '';
  ordered.forEach((e, i) => {
    let content = e.source.digest;
    const expanded = e.source.expanded;
    if (expanded) content += `\0${expanded.digest}`;
    const assets = e.resolved.assets;
    for (const a of assets.length === 1 ? assets : [...assets].sort((x, y) => (x.path < y.path ? -1 : 1))) content += `\0${a.path}\0${a.digest}`;
    const named = e.compiled.identity.aliases;
    const aliases = named.length === 0 ? '' : named.map((a) => a.key).join(',');
    text += `lesson\0${e.compiled.identity.key}\0${e.source.path}\0${content}\0${i}\0${ref}\0${aliases}\n`;
  });
  return text;
}

/** sha256 over everything a saved plan depends on in the repo: program ids, lesson identity, place and content. */
function digestOf(programs: DesiredProgram[], lines: ReadonlyMap<DesiredSection, string>): string {
  const hash = createHash('sha256');
  for (const p of programs) {
    hash.update(`program\0${p.id}\0${p.path}\n`);
    // One update per section: the same bytes as one per lesson, fewer calls into the hash.
    for (const s of p.sections) hash.update(lines.get(s) ?? '');
  }
  return hash.digest('hex');
}
