/**
 * Which changes in the repo recompile the preview: only those that can change what compile
 * reads. The course's inputs are its lesson and settings files (by name, so a new one counts)
 * and the files its lessons reference (images, downloads, included files); a path that appears
 * or goes away may be any of these (a new section folder, an image a lesson was missing). Any
 * other file written in the repo (a log, a build output, an editor's backup) is not an input:
 * rewriting it must not recompile, or `coursesync preview > log 2>&1` would recompile forever
 * (each compile writes its line to the log). The walk never reads hidden paths or
 * node_modules, so they never count; nor do files the preview writes itself (its
 * standard output and error when they are files: `ownOutputs` of startPreview).
 */
import type { DesiredState } from '../model/desired.js';
import { kindOf } from '../source/read-source.js';

/** How fs.watch names a change: `rename` when a path appears or goes away, `change` when a file is written. */
export type WatchEvent = 'rename' | 'change';

/** Repo paths (`/` separators) the lessons of `desired` reference: their assets and dependencies. */
export function referencedFiles(desired: DesiredState | undefined): Set<string> {
  const out = new Set<string>();
  for (const p of desired?.programs ?? []) {
    for (const s of p.sections) {
      for (const l of s.lessons) {
        for (const a of l.assets ?? []) out.add(a.path);
        // A page in the repo a link goes to is no input by its bytes (a new file under it is a `rename`).
        for (const d of l.build?.deps ?? []) if (d.kind !== 'page') out.add(d.path);
      }
    }
  }
  return out;
}

/** Whether a change to `name` (as fs.watch gives it, relative to the repo) may change the compiled course. */
export function isCourseInput(event: WatchEvent, name: string, referenced: ReadonlySet<string>): boolean {
  const rel = name.split(/[\\/]/).join('/');
  const parts = rel.split('/');
  if (parts.some((part) => part.startsWith('.') || part === 'node_modules')) return false;
  if (event === 'rename') return true;
  return kindOf(rel, parts.at(-1)!) !== undefined || referenced.has(rel);
}
