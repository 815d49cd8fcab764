/**
 * Words for what an apply did (PURE): one line per call for logs, and the closing summary that
 * says what succeeded, what failed (with the server's message and the file), and what state the
 * school and the state file are in now.
 */
import { escapeControl } from '../diagnostics/diagnostic.js';
import type { CallStep } from '../plan/plan-schema.js';
import { SchoolApiError } from '../school/errors.js';
import type { CallOutcome, PositionMismatch } from './apply-plan.js';
import type { ApplyCourseResult } from './apply-course.js';

const SYMBOL: Record<CallStep['action'], string> = { create: '+', update: '~', move: '>', unpublish: '-' };
const PAST: Record<CallStep['action'], string> = { create: 'created', update: 'updated', move: 'moved', unpublish: 'unpublished' };

/** `+ create intro-welcome → sec_start #3 (lesson les_12) 48 ms`, or the failure. */
export function describeOutcome(o: CallOutcome): string {
  const s = o.step;
  const head = `${SYMBOL[s.action]} ${s.action} ${s.key}`;
  switch (o.status) {
    case 'done':
      return `${head} → ${o.lesson.section_id} #${o.lesson.position} (lesson ${o.lesson.id}) ${o.ms} ms` + (o.mismatch ? `  [${mismatchText(o.mismatch)}]` : '');
    case 'failed':
      return `✗ ${s.action} ${s.key} (${s.path}) failed after ${o.ms} ms: ${escapeControl(o.error.message)}`;
    case 'uncertain':
      return `? ${s.action} ${s.key} (${s.path}): outcome unknown after ${o.ms} ms: ${escapeControl(o.error.message)}`;
    case 'skipped':
      return `  ${s.action} ${s.key} not started (${skipText(o.reason)})`;
  }
}

function skipText(reason: 'chain-failed' | 'interrupted' | 'unauthorized'): string {
  if (reason === 'chain-failed') return 'an earlier call of its section failed';
  if (reason === 'unauthorized') return 'the school refused the API token';
  return 'interrupted';
}

function mismatchText(m: PositionMismatch): string {
  return `expected ${m.expected.section_id} #${m.expected.position ?? '?'}, the school put it at ${m.got.section_id} #${m.got.position}`;
}

/** The closing summary, as lines. */
export function summarizeApply(r: ApplyCourseResult, options: { seconds: number }): string[] {
  const out: string[] = [];
  const outcomes = r.result?.outcomes ?? [];
  const done = outcomes.filter((o) => o.status === 'done');
  const failed = outcomes.filter((o) => o.status === 'failed');
  const uncertain = outcomes.filter((o) => o.status === 'uncertain');
  const skipped = outcomes.filter((o) => o.status === 'skipped');
  const counts = (['create', 'move', 'update', 'unpublish'] as const)
    .map((a) => [a, done.filter((o) => o.step.action === a).length] as const)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => `${n} ${PAST[a]}`);
  // An uncertain create may have reached the school: never say "nothing changed" then.
  const maybe = uncertain.length > 0 ? `${uncertain.length} create${uncertain.length === 1 ? '' : 's'} may have been made` : '';
  const made = counts.length > 0 ? [...counts, ...(maybe ? [maybe] : [])].join(', ') : maybe ? `none confirmed; ${maybe}` : 'nothing changed';
  const ok = failed.length === 0 && uncertain.length === 0 && skipped.length === 0;
  if (ok) {
    out.push(`Apply complete: ${made} (${done.length} call${done.length === 1 ? '' : 's'} in ${options.seconds.toFixed(1)} s, concurrency ${r.concurrency}).`);
  } else {
    const verb = r.result?.interrupted ? 'Apply interrupted' : 'Apply failed';
    out.push(`${verb}: ${done.length} of ${outcomes.length} calls made (${made}); ${failed.length} failed, ${uncertain.length} uncertain, ${skipped.length} not started.`);
    for (const o of failed) out.push(`  ✗ ${o.step.path}: ${o.step.action} ${o.step.key}${o.step.lesson_id ? ` (${o.step.lesson_id})` : ''}: ${serverMessage(o.error)}`);
    for (const o of uncertain) {
      out.push(`  ? ${o.step.path}: create ${o.step.key} in ${o.step.section_id} may or may not exist (${escapeControl((o.error as { reason?: string }).reason ?? o.error.message)})`);
      out.push(`      check the section in the school, then \`coursesync import <lesson id> --key ${o.step.key}\` or \`coursesync apply --recreate ${o.step.key}\``);
    }
    if (skipped.length > 0) out.push(`  not started: ${skipped.map((o) => o.step.path).join(', ')}`);
  }
  for (const m of r.result?.mismatches ?? []) out.push(`  ! ${m.step.path}: position differs from the plan: ${mismatchText(m)}`);
  if (r.readBack && r.readBack.refreshed.length > 0) {
    out.push(`  read back ${r.readBack.refreshed.length} lesson(s) from the school so the state has their real positions; run \`coursesync plan\`: the order may need another apply`);
  }
  if (r.readBackError) out.push(`  could not read lessons back (${escapeControl(r.readBackError.message)}); the next apply does it first`);
  if (!ok || r.pendingLeft > 0) {
    out.push(
      `State: ${r.stateFile} (serial ${r.serial}) records every call made` +
        (r.pendingLeft > 0 ? `, and ${r.pendingLeft} call(s) whose outcome is unknown, which the next apply reads back first` : '') +
        (uncertain.length > 0
          ? '. The school has the changes listed as made, may have the uncertain creates, and none of the others.'
          : '. The school has the changes listed as made and none of the others.'),
    );
  }
  return out;
}

/** The server's own words when it answered, else the error message (escaped: the school's text). */
function serverMessage(e: Error): string {
  if (e instanceof SchoolApiError) return escapeControl(`${e.endpoint} answered ${e.status}: ${e.serverError ?? 'no message'}`);
  return escapeControl(e.message);
}
