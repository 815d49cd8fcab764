/** The plan as versioned JSON (PURE): `--json`, `--format json` and `--out plan.json`. */
import { CoursesyncError } from '../diagnostics/errors.js';
import { PLAN_FORMAT_VERSION, PlanSchema, type Plan } from './plan-schema.js';

/** Plan JSON with 2-space indent and a trailing newline. */
export function renderJson(plan: Plan): string {
  return JSON.stringify(plan, null, 2) + '\n';
}

/** Parse a saved plan (`apply plan.json`); a wrong or newer file is a clear error naming it. */
export function parsePlanText(text: string, file: string): Plan {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CoursesyncError(`the plan file ${file} is not valid JSON (${(e as Error).message})`, {
      code: 'plan/corrupt',
      hint: 'save a new plan with `coursesync plan --out plan.json`',
    });
  }
  const version = (raw as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number' && version !== PLAN_FORMAT_VERSION) {
    throw new CoursesyncError(`the plan file ${file} has format_version ${version}; this coursesync reads ${PLAN_FORMAT_VERSION}`, {
      code: 'plan/version',
      hint: 'make the plan with the same coursesync version that applies it',
    });
  }
  const parsed = PlanSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new CoursesyncError(`the plan file ${file} is not a coursesync plan: at ${first?.path.join('.') || '(top level)'}: ${first?.message}`, {
      code: 'plan/invalid',
      hint: 'save a new plan with `coursesync plan --out plan.json`',
    });
  }
  return parsed.data;
}
