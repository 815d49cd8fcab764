/**
 * Items of the field report through the built CLI against the emulator: two folders resolving
 * to one section, `state list` and drift lines after a rename.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { clientOf, useTestSchool } from '../apply/helpers.js';
import { lesson, runCli, writeRepo } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

const BODY = '## Steps\n\n1. Install the [toolchain](https://example.com/install).\n2. Check it:\n\n```sh\nrustc --version\n```\n';

describe('two folders, one section', () => {
  it('one by name: and one by id: resolving to the same section is an error naming both, before any write', async () => {
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/a/section.yaml': 'name: Types\n',
      'p/a/01-one.md': lesson('name: One\nlesson_type: text', BODY),
      'p/b/section.yaml': 'id: sec_types\n',
      'p/b/01-two.md': lesson('name: Two\nlesson_type: text', BODY),
    });
    const before = emu.stats().byRoute['POST /lessons'] ?? 0;
    for (const args of [['plan'], ['apply', '--yes']]) {
      const r = await runCli(args, env, dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('coursesync: p/a/section.yaml (name: "Types") and p/b/section.yaml (id: sec_types) both resolve to section sec_types');
      expect(r.stderr).toMatch(/hint: move the lessons into one of the folders/);
    }
    expect(emu.stats().byRoute['POST /lessons'] ?? 0).toBe(before);
  });
});

describe('after a rename', () => {
  it('state list shows the current path once applied, and drift lines name the file as it is now', async () => {
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
      'p/s/01-setup.md': lesson('name: Setup\nkey: setup\nlesson_type: text', BODY),
    });
    expect((await runCli(['apply', '--yes'], env, dir)).code).toBe(0);
    await rename(join(dir, 'p/s/01-setup.md'), join(dir, 'p/s/01-install.md'));
    const applied = await runCli(['apply', '--yes'], env, dir);
    expect(applied.code, applied.stderr).toBe(0);
    const list = await runCli(['state', 'list'], env, dir);
    expect(list.stdout).toMatch(/^setup\tles_\d+\tsec_start\t1\tp\/s\/01-install\.md$/m);
    // Renamed again, not applied yet: a drift line names the file as it is now.
    await rename(join(dir, 'p/s/01-install.md'), join(dir, 'p/s/01-getting-set-up.md'));
    const id = list.stdout.match(/les_\d+/)![0];
    await clientOf(emu).lessons.update(id, { name: 'Setup (edited online)' });
    const plan = await runCli(['plan', '--refresh'], env, dir);
    expect(plan.stdout).toContain(`! p/s/01-getting-set-up.md (${id}) was changed in the school since the last apply: name`);
    expect(plan.stdout).not.toContain('01-install.md');
  });
});
