/**
 * What a person sees in a terminal, through the built CLI in a pseudo-terminal: apply's
 * progress bar never erases the lines of what was done (the created lessons' ids), diagnostics
 * are coloured, FORCE_COLOR=0 turns colour off; and off a terminal, a reader that stops early
 * (`coursesync --help | head`) ends nothing in a crash.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useTestSchool } from '../apply/helpers.js';
import { CLI, lesson, writeRepo } from '../e2e/helpers.js';
import { runInPty } from './pty.js';

let schoolEnv: Record<string, string> = {};
useTestSchool((_, env) => (schoolEnv = env));
const env = () => schoolEnv;

function repo(lessons: number, extra: Record<string, string> = {}): Promise<string> {
  const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n', ...extra };
  for (let i = 1; i <= lessons; i++) {
    files[`p/s/0${i}-part-${i}.md`] = lesson(`name: Part ${i}`, `# Part ${i}\n\nRead [the setup notes](https://example.com/setup) first.\n\n| step | time |\n|---|---|\n| ${i} | 5 min |\n`);
  }
  return writeRepo(files);
}

/**
 * Escape sequences that move the cursor up or back to a saved place (CSI n A, CSI n F, CSI n;m H,
 * ESC 8, CSI u): what would let later output overwrite printed lines.
 */
const CURSOR_BACK = /\x1b\[\d*[AF]|\x1b\[\d*;?\d*H|\x1b8|\x1b\[u/;
/** An SGR colour sequence (foreground 30–37, bold). */
const COLOUR = /\x1b\[(3[0-7]|1)m/;

describe('in a terminal', () => {
  it('apply prints each call\'s outcome, with the created lesson\'s id, above the progress bar, and nothing erases it', async () => {
    const run = runInPty(['apply', await repo(3)], env());
    await run.waitFor(/\[y\/N\] /);
    run.type('y\r');
    const { code, screen } = await run.done;
    expect(code).toBe(0);
    const created = [...screen.matchAll(/\+ create part-(\d) → sec_start #\d \(lesson (les_\w+)\)/g)];
    expect(created.map((m) => m[1]).sort()).toEqual(['1', '2', '3']);
    expect(new Set(created.map((m) => m[2])).size).toBe(3);
    expect(screen).not.toMatch(CURSOR_BACK);
    expect(screen).toMatch(/Apply complete: 3 created/);
  });

  it('validate colours its diagnostics (the severity, the place); FORCE_COLOR=0 and NO_COLOR turn colour off', async () => {
    const dir = await repo(1, { 'p/s/02-broken.md': '---\nname: Broken\nlesson_type: quiz\n---\nBody\n' });
    const coloured = await runInPty(['validate', dir], { NO_COLOR: '' }).done;
    expect(coloured.code).toBe(1);
    expect(coloured.screen).toMatch(/\x1b\[1mp\/s\/02-broken\.md:3:\d+\x1b\[22m \x1b\[1m\x1b\[31merror\x1b\[39m\x1b\[22m /);
    for (const off of [{ NO_COLOR: '', FORCE_COLOR: '0' }, { NO_COLOR: '1' }] as Array<Record<string, string>>) {
      const plain = await runInPty(['validate', dir], off).done;
      expect(plain.screen).toMatch(/p\/s\/02-broken\.md:3:\d+ error /);
      expect(plain.screen).not.toMatch(COLOUR);
    }
    // The same off a terminal: plan's text has no colour with FORCE_COLOR=0 either.
    const plan = await runInPty(['plan', await repo(1)], { ...env(), NO_COLOR: '', FORCE_COLOR: '0' }).done;
    expect(plan.screen).toContain('Plan: 1 to create');
    expect(plan.screen).not.toMatch(COLOUR);
  });
});

describe('a reader that stops early', () => {
  /** The CLI with its stdout a pipe whose reading end is closed before it starts writing. */
  function closedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  }

  it('--help, a command\'s --help and a completion script piped into head exit 0 with nothing on stderr (no EPIPE crash)', async () => {
    for (const args of [['--help'], ['plan', '--help'], ['completion', 'bash']]) {
      expect(await closedPipe(args), args.join(' ')).toEqual({ code: 0, stderr: '' });
    }
  });
});
