/**
 * One diagnostic per missing setting (PURE). A course without `school.lesson_url` or
 * `assets.base_url` has every lesson link or image in error for the same reason: hundreds of
 * lines would hide the one fix. Each setting is reported once, at its first reference, with
 * how many references and files need it.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';

const SETTINGS: Record<string, { setting: string; what: string }> = {
  'lesson/needs-lesson-url': { setting: 'school.lesson_url', what: 'links to lessons' },
  'lesson/needs-assets-url': { setting: 'assets.base_url', what: 'images and files' },
};

/** Is `d` a reference that needs a setting coursesync.yaml lacks? */
export function isMissingSetting(d: Diagnostic): boolean {
  return d.code in SETTINGS;
}

/** The first diagnostic of each missing setting, counting the others in its message. */
export function summarizeMissingSettings(found: readonly Diagnostic[]): Diagnostic[] {
  const byCode = new Map<string, Diagnostic[]>();
  for (const d of found) byCode.set(d.code, [...(byCode.get(d.code) ?? []), d]);
  return [...byCode].map(([code, all]) => {
    const first = all[0]!;
    if (all.length === 1) return first;
    const files = new Set(all.map((d) => d.file)).size;
    const { setting, what } = SETTINGS[code]!;
    return { ...first, message: `coursesync.yaml sets no ${setting}, and ${all.length} ${what} in ${files} file${files === 1 ? '' : 's'} need it (this is the first)` };
  });
}
