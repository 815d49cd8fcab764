/** The plan as versioned JSON (PURE): `--json`, `--format json` and `--out plan.json`. */
import { constants } from 'node:buffer';
import { printableJson } from '../diagnostics/diagnostic.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { PLAN_FORMAT_VERSION, PlanSchema, type Plan } from './plan-schema.js';

/** Plan JSON with 2-space indent and a trailing newline. */
export function renderJson(plan: Plan): string {
  return [...renderJsonParts(plan)].join('');
}

/** Stands for the changes in the plan's frame (a string JSON never writes in a plan). */
const CHANGES = '\u0000changes\u0000';

/**
 * renderJson's text in parts, the changes one at a time: a plan of 100,000 creates (their
 * HTML bodies included) is more text than one string may hold, so `--out` and `--json` write it
 * part by part. The parts joined are exactly JSON.stringify(plan, null, 2), made printable.
 */
export function* renderJsonParts(plan: Plan): Generator<string> {
  const frame = printableJson(JSON.stringify({ ...plan, changes: CHANGES }, null, 2));
  const at = frame.indexOf(JSON.stringify(CHANGES));
  yield frame.slice(0, at);
  if (plan.changes.length === 0) yield '[]';
  else {
    yield '[\n';
    for (let i = 0; i < plan.changes.length; i++) {
      // The changes sit two levels deep: each line of one is indented by 4 more spaces.
      yield `${i === 0 ? '' : ',\n'}${printableJson(JSON.stringify(plan.changes[i], null, 2)).replace(/^/gm, '    ')}`;
    }
    yield '\n  ]';
  }
  yield `${frame.slice(at + JSON.stringify(CHANGES).length)}\n`;
}

/** Bytes of a saved plan this coursesync can read: a string holds at most this many characters. */
export const MAX_PLAN_FILE_BYTES = constants.MAX_STRING_LENGTH;

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
