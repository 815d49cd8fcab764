/** The desired state's parts made from compiled lessons (PURE), and its digest for saved plans. */
import { createHash } from 'node:crypto';
import type { DesiredLesson, DesiredProgram } from '../model/desired.js';
import type { LessonEntry } from './course-parts.js';

export function desiredLesson(entry: LessonEntry): DesiredLesson | undefined {
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
  if (expanded) lesson.digest = createHash('sha256').update(`${entry.source.digest}\0${expanded.digest}`).digest('hex');
  if (resolved.assets.length > 0) {
    lesson.assets = resolved.assets;
    // A saved plan must notice an edited image: the lesson's digest covers the files it shows.
    const hash = createHash('sha256').update(lesson.digest);
    for (const a of [...resolved.assets].sort((x, y) => (x.path < y.path ? -1 : 1))) hash.update(`\0${a.path}\0${a.digest}`);
    lesson.digest = hash.digest('hex');
  }
  if (entry.build) lesson.build = entry.build;
  if (entry.known) lesson.unchanged = true;
  if (resolved.links.length > 0) lesson.links = resolved.links;
  if (copied_from !== undefined) lesson.copied_from = copied_from;
  if (acknowledge !== undefined) lesson.acknowledge = acknowledge;
  return lesson;
}

/** sha256 over everything a saved plan depends on in the repo: program ids, lesson identity, place and content. */
export function digestOf(programs: DesiredProgram[]): string {
  const hash = createHash('sha256');
  for (const p of programs) {
    hash.update(`program\0${p.id}\0${p.path}\n`);
    for (const s of p.sections) {
      const ref = 'id' in s.ref ? `id\0${s.ref.id}` : `name\0${s.ref.name}`;
      s.lessons.forEach((l, i) => hash.update(`lesson\0${l.key}\0${l.path}\0${l.digest}\0${i}\0${ref}\0${l.aliases.join(',')}\n`));
    }
  }
  return hash.digest('hex');
}
