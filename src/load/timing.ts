/**
 * `COURSESYNC_DEBUG=timing` (I/O edge): when each step of a run ended, in milliseconds since the
 * process started, one line on stderr per step. It shows a plan's critical path (which thread
 * waits for which, what runs after the read) without a profiler's overhead
 * (test/bench/README.md, "Where a fresh checkout's time goes"). Marks are placed only in
 * composers; a run without the variable pays one lookup of it. Here, not in diagnostics/: it is
 * no part of the compiler, whose id (compiler-id.ts) would otherwise change with it.
 */
let enabled: boolean | undefined;

/** The values COURSESYNC_DEBUG asks for (comma-separated: `compile,timing`), empty ones dropped. */
export function debugValues(env: NodeJS.ProcessEnv): string[] {
  return (env.COURSESYNC_DEBUG ?? '').split(',').filter((d) => d !== '');
}

/** Mark the end of `step` (e.g. `read: worker answered`). */
export function timing(step: string): void {
  enabled ??= debugValues(process.env).includes('timing');
  if (enabled) process.stderr.write(`debug: ${performance.now().toFixed(0)} ms ${step}\n`);
}
