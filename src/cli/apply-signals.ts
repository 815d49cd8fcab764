/**
 * SIGINT and SIGTERM during `coursesync apply`: the first stops starting calls (the abort
 * signal), lets those in flight finish, saves the state, and the command exits 130 (143 for
 * SIGTERM); a second exits at once (the state may hold pending calls; the next apply resolves
 * them). While the confirmation prompt is open, the prompt stops itself (terminal.ts confirm).
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Out } from './terminal.js';

export interface ApplySignals {
  signal: AbortSignal;
  /** The first signal received, if any. */
  stoppedBy(): NodeJS.Signals | undefined;
  /** The exit code of the signal received (Interrupted when none). */
  exitCode(): ExitCode;
  /** Run `ask` with the prompt in charge of signals. */
  atPrompt<T>(ask: () => Promise<T>): Promise<T>;
  /** Stop listening. */
  release(): void;
}

const codeOf = (signal: NodeJS.Signals | undefined) => (signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted);

/** Listen for SIGINT and SIGTERM until `release()`; messages go to `err`. */
export function stopOnSignals(err: Out): ApplySignals {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  let prompting = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (prompting) return;
    if (stoppedBy === undefined) {
      stoppedBy = signal;
      err.write(`\nStopping: no new calls will start; waiting for the calls in flight, then saving the state. Press Ctrl-C again to stop at once.\n`);
      controller.abort();
      return;
    }
    err.write('\nStopped at once. The state may hold calls still pending; the next `coursesync apply` resolves them first.\n');
    process.exit(codeOf(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    stoppedBy: () => stoppedBy,
    exitCode: () => codeOf(stoppedBy),
    atPrompt: (ask) => {
      prompting = true;
      return ask().finally(() => (prompting = false));
    },
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
