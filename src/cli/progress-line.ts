/**
 * apply's progress bar on a terminal: one line, always the last one. A line printed with
 * `print` goes above it (the bar's line is cleared, the line written, the bar drawn again
 * below), and `stop` clears only the bar's own line, so nothing printed is ever erased. (A bar
 * that saves the cursor at its start and restores it at its end overwrites what came between.)
 */
import type { Out } from './terminal.js';

export interface Progress {
  done: number;
  inflight: number;
  failed: number;
}

const WIDTH = 30;
const CLEAR_LINE = '\r\x1b[2K';

export function progressLine(bar: Out & { columns?: number | undefined }, total: number) {
  const now: Progress = { done: 0, inflight: 0, failed: 0 };
  const draw = (): void => {
    const filled = total === 0 ? WIDTH : Math.round((WIDTH * now.done) / total);
    const text = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)} ${now.done}/${total} calls | ${now.inflight} in flight | ${now.failed} failed`;
    // Never wider than the terminal: a wrapped bar could not be cleared with its line.
    bar.write(CLEAR_LINE + (bar.columns ? text.slice(0, bar.columns - 1) : text));
  };
  draw();
  return {
    update(progress: Partial<Progress>): void {
      Object.assign(now, progress);
      draw();
    },
    /** Write `line` (to `out`, which shows on the same terminal) above the bar. */
    print(line: string, out: Out): void {
      bar.write(CLEAR_LINE);
      out.write(line + '\n');
      draw();
    },
    stop(): void {
      bar.write(CLEAR_LINE);
    },
  };
}
