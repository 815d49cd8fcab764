/** The plan as versioned JSON (PURE): `--json`, `--format json` and `--out plan.json`. */
import { printableJson } from '../diagnostics/diagnostic.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { PLAN_FORMAT_VERSION, PlanSchema, type Plan } from './plan-schema.js';

/** Plan JSON with 2-space indent and a trailing newline. */
export function renderJson(plan: Plan): string {
  return printableJson(JSON.stringify(plan, null, 2)) + '\n';
}

/** Parse a saved plan (`apply plan.json`); a wrong or newer file is a clear error naming it. */
export function parsePlanText(text: string, file: string): Plan {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw failure('plan/corrupt', { file, reason: (e as Error).message });
  }
  const version = (raw as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number' && version !== PLAN_FORMAT_VERSION) {
    throw failure('plan/version', { file, version, supported: PLAN_FORMAT_VERSION });
  }
  const parsed = PlanSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw failure('plan/invalid', { file, problem: `at ${first?.path.join('.') || '(top level)'}: ${first?.message}` });
  }
  return parsed.data;
}
