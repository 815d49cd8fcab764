/**
 * Why a lesson's body or description changed (PURE), from its digest as recorded at the last
 * apply and as computed now (compile/lesson-digest.ts): its file, a referenced file or linked
 * lesson, inherited settings, or, when none of those changed, the compiler that renders it.
 */
import { digestChange, lessonDigest } from '../compile/lesson-digest.js';
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
