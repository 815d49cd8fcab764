/**
 * What `coursesync apply` shows while it runs: the plan and the confirmation (`--yes` required
 * off a terminal when there is a call to make), then on a terminal a progress bar (calls done,
 * in flight, failed) with each outcome printed above it, or off one a line per outcome.
 */
import type { ConfirmContext } from '../apply/apply-options.js';
import type { ApplyEvent } from '../apply/apply-plan.js';
import { describeOutcome } from '../apply/summarize-apply.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { plural } from '../diagnostics/error-codes/entry.js';
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import { renderText } from '../plan/render-text.js';
import { readPlanSources } from '../sync/plan-sources.js';
import type { ApplySignals } from './apply-signals.js';
import { progressLine } from './progress-line.js';
import { confirm as ask, type Out } from './terminal.js';

export interface ProgressOptions {
  dir: string;
  /** Where what a person reads goes (stderr with --json). */
  out: Out;
  color: boolean;
  interactive: boolean;
  yes: boolean;
  htmlDiff: boolean;
  signals: ApplySignals;
}

/** The confirm and onEvent of applyCourse for a terminal or a log; `seconds()` times the calls, not the wait for an answer. */
export function applyProgress(o: ProgressOptions) {
  let bar: ReturnType<typeof progressLine> | undefined;
  let failed = 0;
  let done = 0;
  let started = performance.now();
  const confirm = async (plan: Plan, ctx: ConfirmContext): Promise<boolean> => {
    o.out.write(renderText(plan, { color: o.color, sources: await readPlanSources(o.dir, plan, ctx.verbatimText), htmlDiff: o.htmlDiff }));
    const calls = plan.changes.filter(isCall).length;
    const question = `Apply ${calls === 1 ? 'this' : 'these'} ${plural(calls, 'call')} to ${ctx.baseUrl}?`;
    // Off a terminal nobody can confirm; asked only when there is a call to make.
    if (!o.interactive && !o.yes) throw failure('cli/needs-yes', { question, plan: true });
    // Stopped while planning: no prompt, no call.
    if (o.signals.stoppedBy()) throw failure('cli/interrupted', { question }, { exitCode: o.signals.exitCode() });
    const ok = await o.signals.atPrompt(() => ask(question, { yes: o.yes }));
    if (ok && o.interactive) bar = progressLine(process.stderr, calls);
    else if (ok) o.out.write(`Applying ${calls} call${calls === 1 ? '' : 's'} to ${ctx.baseUrl} (concurrency ${ctx.concurrency})…\n`);
    started = performance.now();
    return ok;
  };
  const onEvent = (e: ApplyEvent) => {
    if (e.type === 'call-start') return void bar?.update({ inflight: e.inFlight });
    if (e.outcome.status === 'failed' || e.outcome.status === 'uncertain') failed++;
    bar?.update({ done: ++done, inflight: e.inFlight, failed });
    // Each outcome (a created lesson's id among them) is printed, above the bar on a terminal.
    if (e.outcome.status === 'skipped') return;
    if (bar) bar.print(describeOutcome(e.outcome), o.out);
    else o.out.write(describeOutcome(e.outcome) + '\n');
  };
  return { confirm, onEvent, stop: () => bar?.stop(), seconds: () => (performance.now() - started) / 1000 };
}
