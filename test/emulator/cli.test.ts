/** `coursesync emulator` as a process: the listening line, serving, SIGTERM, bad flags and seeds. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';

const CLI = 'dist/cli/index.js';

/** Start the built CLI and resolve with the first stdout line (or the exit when it fails). */
function start(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'emulator', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve) => {
    const check = () => {
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    };
    child.stdout.on('data', check);
    void exited.then(() => resolve(stdout.split('\n')[0] ?? ''));
  });
  return { child, firstLine, exited, output: () => ({ stdout, stderr }) };
}

describe('coursesync emulator (built CLI)', () => {
  it('prints the listening line, serves the API and exits 0 on SIGTERM', async () => {
    const run = start(['--port', '0']);
    const line = await run.firstLine;
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const url = line.replace('listening on ', '');
    const r = await fetch(`${url}/custom_code`, { headers: { authorization: 'Bearer demo-token' } });
    expect(r.status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output().stderr).toBe('');
  });

  it('exits 0 on SIGINT too', async () => {
    const run = start(['--port', '0', '--latency-ms', '5']);
    expect(await run.firstLine).toMatch(/^listening on /);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('a bad seed file is a clear error naming the file, exit 1, no stack trace', async () => {
    const run = start(['--port', '0', '--seed', 'test/fixtures/emulator/bad-seed.yaml']);
    expect(await run.exited).toBe(1);
    const { stderr, stdout } = run.output();
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^coursesync: test\/fixtures\/emulator\/bad-seed\.yaml: invalid seed: /);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a bad flag value is refused with the flag named', async () => {
    const run = start(['--fail-rate', '2']);
    expect(await run.exited).toBe(ExitCode.Usage);
    expect(run.output().stderr).toContain('--fail-rate takes a share between 0 and 1');
  });
});

describe('startEmulator listen errors', () => {
  it('a port in use is a CoursesyncError with a hint', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js');
    const first = await startEmulator({ port: 0 });
    try {
      const err = await startEmulator({ port: first.port }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'emulator/port-in-use', message: `cannot listen on 127.0.0.1:${first.port}: the port is already in use` });
    } finally {
      await first.close();
    }
  });
});
