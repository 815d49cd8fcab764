/**
 * Why a lesson's body or description changed (PURE), from its digest as recorded at the last
 * apply and as computed now (compile/lesson-digest.ts): its file, a referenced file or linked
 * lesson, inherited settings, or, when none of those changed, the compiler that renders it.
 */
import { digestChange, lessonDigest, parseDepRecord, parseInputs, varHash } from '../compile/lesson-digest.js';
import type { DesiredLesson } from '../model/desired.js';
import type { LessonState } from '../model/state/schema.js';
import type { CallStep, FieldChange } from './plan-schema.js';

export type ChangeCause = NonNullable<CallStep['cause']>;

/**
 * The cause of `changes` to a tracked lesson, when they touch body or description and the state
 * recorded its digest; undefined otherwise.
 * @param compiler the short digest of the compiler now (state `compiler`)
 */
export function changeCause(
  prior: LessonState | null,
  lesson: DesiredLesson,
  changes: readonly FieldChange[],
  placeOf: (path: string) => string | undefined,
  compiler: string | undefined,
): ChangeCause | undefined {
  if (!prior || !changes.some((c) => c.field === 'body' || c.field === 'description')) return undefined;
  if (prior.digest === undefined || lesson.build === undefined) return undefined;
  const part = digestChange(prior.digest, lessonDigest(lesson.path, lesson.build, placeOf));
  if (part) return part;
  return compiler !== undefined && prior.compiler !== undefined && prior.compiler !== compiler ? 'renderer' : undefined;
}

/**
 * What the lesson took in that changed since the last apply, one phrase each ("image
 * img/x.png changed", "listings/ch01/main.rs changed", "variable vars.edition changed"): from
 * the short hashes the state recorded with its digest. Empty when the state recorded none.
 */
export function changedInputs(prior: LessonState | null, lesson: DesiredLesson): string[] {
  const build = lesson.build;
  if (!prior || prior.digest === undefined || !build) return [];
  const reasons: string[] = [];
  const deps = new Map((prior.deps ?? []).map((d) => parseDepRecord(d)).map((d) => [d.path, d.hash]));
  const images = new Set((lesson.assets ?? []).filter((a) => a.image).map((a) => a.path));
  for (const dep of build.deps) {
    const was = deps.get(dep.path);
    if (was === undefined || was === dep.digest.slice(0, 4)) continue;
    const what = dep.kind === 'lesson' ? 'linked lesson' : dep.kind === 'page' ? 'link target' : images.has(dep.path) ? 'image' : 'file';
    reasons.push(`${what} ${dep.path} changed`);
  }
  const inputs = parseInputs(prior.inputs);
  for (const inc of build.includes ?? []) {
    const was = inputs.includes.get(inc.path);
    if (was === undefined) reasons.push(`now includes ${inc.path}`);
    else if (was !== inc.digest.slice(0, 8)) reasons.push(`${inc.path} changed`);
  }
  for (const v of build.vars ?? []) {
    const was = inputs.vars.get(v.name);
    if (was === undefined) reasons.push(`now uses variable vars.${v.name}`);
    else if (was !== varHash(v.value)) reasons.push(`variable vars.${v.name} changed`);
  }
  return reasons;
}
