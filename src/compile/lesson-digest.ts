/**
 * A lesson's digest (PURE): one hash of everything its compiled fields depend on, so a lesson
 * whose digest matches the one recorded when it was applied is unchanged without reading,
 * parsing or rendering its Markdown. It covers the file's path (the key may come from its
 * name) and bytes, the settings it inherits (lesson defaults; with references, the assets base
 * URL and the lesson URL template), and each file it references: an asset by its bytes, a
 * linked lesson by its bytes (its key and anchors) and by where the school has it (program and
 * lesson id, which its link URL holds).
 */
import { createHash } from 'node:crypto';
import type { CourseConfig } from '../model/config.js';
import type { LessonDefaults } from '../model/lesson.js';

/** What a lesson's digest is computed from, known once it compiled with no diagnostic. */
export interface LessonBuild {
  /** sha256 of the lesson file's bytes. */
  file: string;
  /** The inherited settings, canonical (lessonSettings). */
  settings: string;
  /** Repo-relative paths of the files it references, sorted: assets and linked lessons. */
  deps: string[];
}

/** How a referenced file is known now: an asset or another lesson, by the sha256 of its bytes. */
export type DepState = { kind: 'file'; digest: string } | { kind: 'lesson'; digest: string };

/** The inherited settings a lesson's HTML depends on, as one canonical string. */
export function lessonSettings(defaults: LessonDefaults, config: CourseConfig, hasDeps: boolean): string {
  const sorted = Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const refs = hasDeps ? { assets: config.assets?.base_url ?? null, lesson_url: config.school?.lesson_url ?? null } : {};
  return JSON.stringify({ defaults: sorted, ...refs });
}

/**
 * The digest (32 hex) of a lesson at `path`, or undefined when a referenced file is gone.
 * @param depOf how each referenced path is known now (undefined: not in the repo)
 * @param placeOf where the school has the lesson at a path (`program/id`), for link targets
 */
export function lessonDigest(
  path: string,
  build: Pick<LessonBuild, 'file' | 'settings' | 'deps'>,
  depOf: (path: string) => DepState | undefined,
  placeOf: (path: string) => string | undefined,
): string | undefined {
  const hash = createHash('sha256').update(`lesson\0${path}\0${build.file}\0${build.settings}\n`);
  for (const dep of build.deps) {
    const known = depOf(dep);
    if (known === undefined) return undefined;
    const where = known.kind === 'lesson' ? `\0${placeOf(dep) ?? '-'}` : '';
    hash.update(`${known.kind}\0${dep}\0${known.digest}${where}\n`);
  }
  return hash.digest('hex').slice(0, 32);
}
