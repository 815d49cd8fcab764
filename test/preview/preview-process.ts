/**
 * The built CLI's `coursesync preview` as a child process on a free port (`--port 0`): its
 * address read from what it prints, stopped with Ctrl-C. Output goes to pipes, or to one file
 * (as `coursesync preview > log 2>&1` would).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { CLI } from '../e2e/helpers.js';

export interface PreviewProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** What it printed so far (stdout and stderr; the log file's text when it writes to one). */
  output(): Promise<string>;
  /** Ctrl-C; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Start `coursesync preview <repo> --port 0`; with `log`, stdout and stderr both go to that file. */
export async function startPreviewProcess(repo: string, log?: string): Promise<PreviewProcess> {
  const env = { ...process.env };
  delete env.COURSESYNC_TOKEN; // it needs none
  const fd = log === undefined ? undefined : openSync(log, 'w');
  const stdio = fd === undefined ? (['ignore', 'pipe', 'pipe'] as const) : (['ignore', fd, fd] as const);
  const child = spawn(process.execPath, [CLI, 'preview', repo, '--port', '0'], { env, stdio: [...stdio] });
  if (fd !== undefined) closeSync(fd);
  let piped = '';
  child.stdout?.on('data', (d: Buffer) => (piped += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (piped += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const output = async () => (log === undefined ? piped : await readFile(log, 'utf8'));
  let running = true;
  void exited.then(() => (running = false));
  for (;;) {
    const m = /^preview on (http:\/\/127\.0\.0\.1:(\d+)\/)$/m.exec(await output());
    if (m) {
      const stop = () => {
        if (child.exitCode !== null) return Promise.resolve(child.exitCode);
        child.kill('SIGINT');
        return exited;
      };
      return { child, url: m[1]!, port: Number(m[2]), output, stop };
    }
    if (!running) throw new Error(`preview exited with ${child.exitCode}: ${await output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One raw HTTP GET, with the exact target and Host given (fetch would normalise both); null sends no Host. */
export function rawGet(port: number, target: string, host: string | null = `127.0.0.1:${port}`): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: target, setHost: false, headers: host === null ? {} : { host } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}
