/**
 * Run the built CLI in a pseudo-terminal (util-linux `script`), so it sees a TTY on stdin and
 * stdout and asks its questions; the test types into it with `type` and reads what a person
 * would see (stdout and stderr mixed, as on a terminal).
 */
import { execFileSync, spawn } from 'node:child_process';
import { CLI } from '../e2e/helpers.js';

export interface PtyRun {
  /** Send keystrokes (`'n\r'`, `'\x03'` for Ctrl-C, `'\x04'` for Ctrl-D). */
  type(keys: string): void;
  /** Resolves once the screen shows `pattern`. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Send `signal` to the CLI itself (the child of `script`). */
  signal(signal: NodeJS.Signals): void;
  /** The exit code and everything shown. */
  done: Promise<{ code: number | null; screen: string }>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `coursesync …args` in a terminal, with the environment plus `env` (colour off). */
export function runInPty(args: string[], env: Record<string, string>): PtyRun {
  // `script` runs the command through $SHELL -c; bash replaces itself with the command but dash
  // (/bin/sh, CI's shell) does not, so `exec` makes the CLI script's own child on any shell and
  // `signal` reaches the CLI, not a shell in between.
  const command = `exec ${[process.execPath, CLI, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1', TERM: 'xterm', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  const waiters: Array<{ pattern: RegExp; resolve: (s: string) => void }> = [];
  const onData = (d: Buffer) => {
    screen += d.toString();
    for (const w of waiters.splice(0)) {
      if (w.pattern.test(screen)) w.resolve(screen);
      else waiters.push(w);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const done = new Promise<{ code: number | null; screen: string }>((resolve) => child.on('close', (code) => resolve({ code, screen })));
  return {
    type: (keys) => child.stdin.write(keys),
    signal: (signal) => {
      const pids = execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).split('\n').filter(Boolean);
      if (pids.length !== 1) throw new Error(`expected the CLI as the one child of script, found ${pids.length}`);
      process.kill(Number(pids[0]), signal);
    },
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        if (pattern.test(screen)) return resolve(screen);
        waiters.push({ pattern, resolve });
        void done.then(() => reject(new Error(`exited before showing ${pattern}:\n${screen}`)));
      }),
    done: done.then((r) => {
      child.stdin.end();
      return r;
    }),
  };
}
