/** `coursesync emulator` as a process: the listening line, serving, SIGTERM, bad flags and seeds. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

const CLI = 'dist/bin/coursesync.js';

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

/** Resolve once the process's stdout contains `text` (checked on each chunk it writes). */
function untilStdout(run: ReturnType<typeof start>, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!run.output().stdout.includes(text)) return;
      run.child.stdout.off('data', check);
      resolve();
    };
    run.child.stdout.on('data', check);
    check();
  });
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

  it('says its API keys (the default seed\'s, which are public) and a command to try after the listening line', async () => {
    const run = start(['--port', '0']);
    const url = (await run.firstLine).replace('listening on ', '');
    await untilStdout(run, 'try: ');
    expect(run.output().stdout).toBe(
      `listening on ${url}\napi key: demo-token (every program)\napi key: partner-token (programs prog_partner)\ntry: COURSESYNC_BASE_URL=${url} COURSESYNC_TOKEN=demo-token npx coursesync plan\n`,
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('--help shows a minimal seed, and that seed, saved as written, starts a school its key can read', async () => {
    const help = spawnSync(process.execPath, [CLI, 'emulator', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    const lines = help.stdout.split('\n');
    const from = lines.findIndex((l) => l.startsWith('A minimal seed'));
    expect(from).toBeGreaterThan(0);
    const block = lines.slice(from + 1).filter((_l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('  ')));
    const dir = await mkdtemp(join(tmpdir(), 'coursesync-emulator-seed-'));
    try {
      await writeFile(join(dir, 'school.yaml'), block.map((l) => l.slice(2)).join('\n') + '\n');
      const run = start(['--port', '0', '--seed', join(dir, 'school.yaml')]);
      const url = (await run.firstLine).replace('listening on ', '');
      await untilStdout(run, 'try: ');
      // A seed file's keys are counted, never printed (one may be a real token copied there).
      expect(run.output().stdout).toBe(`listening on ${url}\napi keys: the token in ${join(dir, 'school.yaml')} (not printed)\ntry: COURSESYNC_BASE_URL=${url} COURSESYNC_TOKEN=<a token of ${join(dir, 'school.yaml')}> npx coursesync plan\n`);
      const state = (await (await fetch(url.replace('/api/v1', '/__emulator/state'), { headers: { authorization: 'Bearer my-token' } })).json()) as { programs: Array<{ id: string; sections: Array<{ id: string }> }> };
      expect(state.programs.map((p) => [p.id, p.sections.map((s) => s.id)])).toEqual([['prog_mine', ['sec_first']]]);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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
