/**
 * coursesync as a library: the stages of the pipeline (read → compile → plan → apply), the
 * typed client of the whole school API, and the emulator. The CLI (src/cli/) is a thin layer
 * over exactly these functions.
 *
 * ```ts
 * import { loadCourse, buildPlan, applyCourse, createSchoolClient, startEmulator } from 'coursesync';
 * ```
 */
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export { CoursesyncError } from './diagnostics/errors.js';
export type * from './model/desired.js';
export { CourseConfigSchema, type CourseConfig } from './model/config.js';

export { readSource } from './source/read-source.js';
export { loadCourse } from './load/load-course.js';
export { compileCourse, type CompileResult } from './compile/index.js';

export { diffCourse, simulatePlan, renderText, renderMarkdown, renderJson, hasChanges, PlanSchema } from './plan/index.js';
export type { Plan, PlanChange, PlanSummary, Impact } from './plan/index.js';
export { learnerView, learnerViewOfDesired, unlockCalendar, gatesOf, type LearnerView, type LearnerLesson, type SectionFacts } from './learner/index.js';
export { startPreview, type PreviewOptions, type RunningPreview } from './preview/preview-server.js';
export { buildPlan, type BuildPlanOptions, type BuiltPlan } from './sync/build-plan.js';
export { applyCourse, applyPlan } from './apply/index.js';
export { StateStore } from './state/state-store.js';

export * from './school/index.js';
export { startEmulator, type EmulatorOptions } from './emulator/index.js';
