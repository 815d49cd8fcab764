/**
 * One JSON contract on every command that prints data, with the built CLI against the emulator:
 * `--json` prints exactly one document on stdout, starting with `format_version`; whatever a
 * person reads (progress, the plan before an apply, diagnostics) goes to stderr.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, tempDir, useTestSchool } from '../apply/helpers.js';
import { lesson, runCli, writeRepo } from '../e2e/helpers.js';

let env: Record<string, string>;
let emu: RunningEmulator;
useTestSchool((e, connection) => {
  emu = e;
  env = connection;
});

const course = () =>
  writeRepo({
    'intro/program.yaml': 'id: prog_intro\n',
    'intro/basics/section.yaml': 'id: sec_start\n',
    'intro/basics/01-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\n| week | topic |\n|---|---|\n| 1 | setup |\n\n<details><summary>Why?</summary>Because.</details>\n'),
    'intro/basics/02-setup.md': lesson('name: Setup\nlesson_type: text', 'Install `node` first:\n\n```sh\nnpm ci\n```\n\nSee [the Node.js docs](https://nodejs.org/en/download).\n'),
  });

/** Run with --json: one JSON document on stdout. */
async function json(args: string[], extraEnv: Record<string, string> = env): Promise<{ code: number; doc: any; stderr: string }> {
  const r = await runCli(args, extraEnv);
  let doc: unknown;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    throw new Error(`${args.join(' ')}: stdout is not one JSON document:\n${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, doc, stderr: r.stderr };
}

describe('--json', () => {
  it('apply: a versioned report on stdout (the plan and progress on stderr); nothing to do off a terminal exits 0', async () => {
    const dir = await course();
    const first = await json(['apply', dir, '--yes', '--json']);
    expect(first.code).toBe(0);
    expect(Object.keys(first.doc)[0]).toBe('format_version');
    expect(first.doc).toMatchObject({ format_version: 1, status: 'applied', school: emu.url, summary: { create: 2 }, settled_drift: [] });
    expect(first.doc.calls.map((c: any) => [c.action, c.path, c.status])).toEqual([
      ['create', 'intro/basics/01-welcome.md', 'done'],
      ['create', 'intro/basics/02-setup.md', 'done'],
    ]);
    expect(first.doc.calls.every((c: any) => /^les_/.test(c.lesson_id))).toBe(true);
    expect(first.stderr).toContain('intro/basics/01-welcome.md will be created');
    expect(first.stderr).toMatch(/^Apply complete/m);
    const again = await json(['apply', dir, '--json']);
    expect(again.code).toBe(0);
    expect(again.doc).toMatchObject({ format_version: 1, status: 'no-changes', calls: [] });

    const list = await json(['state', 'list', '--dir', dir, '--json']);
    expect(list.doc.format_version).toBe(1);
    expect(list.doc.lessons.map((l: any) => l.path).sort()).toEqual(['intro/basics/01-welcome.md', 'intro/basics/02-setup.md']);
    const welcome = list.doc.lessons.find((l: any) => l.path === 'intro/basics/01-welcome.md');
    const show = await json(['state', 'show', welcome.key, '--dir', dir, '--json']);
    expect(show.doc).toMatchObject({ format_version: 1, key: welcome.key, id: first.doc.calls[0].lesson_id });
  });

  it('validate: --json is --format json; in text, diagnostics go to stderr and only the verdict to stdout', async () => {
    const dir = await writeRepo({
      'intro/program.yaml': 'id: prog_intro\n',
      'intro/basics/section.yaml': 'id: sec_start\n',
      'intro/basics/01-welcome.md': lesson('name: Welcome\nlesson_type: text', 'Run [this](javascript:alert(1)) now.\n'),
    });
    const doc = await json(['validate', dir, '--json'], {});
    expect(doc.code).toBe(0);
    expect(doc.doc).toMatchObject({ format_version: 1, valid: true, counts: { programs: 1, sections: 1, lessons: 1 }, diagnostics: [{ code: 'lesson/javascript-url', severity: 'warning' }] });
    const text = await runCli(['validate', dir]);
    expect(text.stdout).toBe('1 program, 1 section, 1 lesson: valid (1 warning)\n');
    expect(text.stderr).toMatch(/^intro\/basics\/01-welcome\.md:\d+:\d+ warning .*\[lesson\/javascript-url\]$/m);
  });

  it('every list and read command of the school prints a versioned document', async () => {
    const out = await tempDir('json-output-');
    const runs = await Promise.all([
      json(['sections', 'list', 'prog_intro', '--json']),
      json(['members', 'list', '--json']),
      json(['members', 'get', '--id', 'mem_1', '--json']),
      json(['members', 'accesses', '--json']),
      json(['offers', 'get', 'off_pro', '--json']),
      json(['webhooks', 'list', '--json']),
      json(['custom-code', 'pull', '--out', join(out, 'code'), '--json']),
      json(['badges', 'award', '--badge-name', 'Finisher', '--email', 'ada@example.com', '--json']),
      json(['auth', 'status', '--json']),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(Object.keys(r.doc)[0]).toBe('format_version');
      expect(r.doc.format_version).toBe(1);
    }
    const [sections, members, member, accesses, offer, webhooks, code, badge] = runs.map((r) => r.doc);
    expect(sections.sections.map((s: any) => s.id)).toContain('sec_start');
    expect(members.members[0]).toMatchObject({ id: 'mem_1' });
    expect(member.member).toMatchObject({ id: 'mem_1', email: 'ada@example.com' });
    expect(Array.isArray(accesses.accesses)).toBe(true);
    expect(offer.offer).toMatchObject({ id: 'off_pro' });
    expect(webhooks.webhooks).toEqual([]);
    expect(Array.isArray(code.files)).toBe(true);
    expect(badge).toMatchObject({ outcome: expect.any(String), award: expect.any(Object) });
    for (const r of runs) expect(JSON.stringify(r.doc) + r.stderr).not.toContain(SECRET);
  });

  it('a plan carries its own format version', async () => {
    const plan = await json(['plan', await course(), '--json'], {});
    expect(plan.code).toBe(0);
    expect(Object.keys(plan.doc)[0]).toBe('format_version');
    expect(plan.doc.format_version).toBe(2);
  });
});
