/**
 * `apply --json`: the one JSON document apply prints on stdout (docs/cli.md#json-output). The
 * plan itself is `coursesync plan --json`; this says what happened to each of its calls.
 */
import type { ApplyCourseResult, CallOutcome } from '../apply/index.js';
import type { PlanSummary } from '../plan/plan-schema.js';
import { JSON_FORMAT_VERSION } from './terminal.js';

export type ApplyStatus = 'applied' | 'no-changes' | 'failed' | 'interrupted' | 'cancelled';

export interface ApplyReport {
  format_version: typeof JSON_FORMAT_VERSION;
  status: ApplyStatus;
  school: string;
  /** The plan's counts (create, update, …) before the run. */
  summary: PlanSummary;
  calls: Array<{
    call_id: string;
    action: string;
    key: string;
    path: string;
    status: CallOutcome['status'];
    lesson_id: string | null;
    error?: string;
    reason?: string;
  }>;
  /** Keys of drifted lessons recorded as the school has them (`--refresh`), with no call. */
  settled_drift: string[];
  seconds: number | null;
}

/** The report of one apply; `status` as the exit code tells it. */
export function applyReport(result: ApplyCourseResult, status: ApplyStatus, seconds: number | null): ApplyReport {
  return {
    format_version: JSON_FORMAT_VERSION,
    status,
    school: result.baseUrl,
    summary: result.plan.summary,
    calls: (result.result?.outcomes ?? []).map((o) => ({
      call_id: o.step.call_id,
      action: o.step.action,
      key: o.step.key,
      path: o.step.path,
      status: o.status,
      lesson_id: o.status === 'done' ? o.lesson.id : o.step.lesson_id,
      ...(o.status === 'failed' || o.status === 'uncertain' ? { error: o.error.message } : {}),
      ...(o.status === 'skipped' ? { reason: o.reason } : {}),
    })),
    settled_drift: result.settledDrift,
    seconds: seconds === null ? null : Math.round(seconds * 1000) / 1000,
  };
}
