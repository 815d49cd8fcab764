/**
 * An apply that cannot fold its journal into state.json at the end fails loudly (state/fold-failed)
 * instead of exiting 0 with a state.json that lacks the run: a workflow would commit that file.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCourse } from '../../src/apply/apply-course.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { lesson, writeRepo } from '../e2e/helpers.js';
import { useTestSchool } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

describe('folding the journal at the end of an apply', () => {
  it('a fold that fails is an error naming both files; the journal is kept for the next run', async () => {
    const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n' };
    for (const i of [1, 2]) files[`p/s/0${i}-part.md`] = lesson(`name: Part ${i}\nkey: part-${i}\nlesson_type: text`, `## Part ${i}\n\nSee the [notes](https://example.com/notes).\n`);
    const dir = await writeRepo(files);
    await applyCourse(dir, { env });
    await writeRepo({ 'p/s/03-part.md': lesson('name: Part 3\nkey: part-3\nlesson_type: text', '## Part 3\n\n| a | b |\n|---|---|\n| 1 | 2 |\n') }, dir);
    const stateFile = join(dir, '.coursesync/state.json');
    let swapped = false;
    const run = applyCourse(dir, {
      env,
      // While the create is in flight, state.json becomes a folder: the journal holds the run, the fold cannot write.
      onEvent: (e) => {
        if (e.type !== 'call-start' || swapped) return;
        swapped = true;
        rmSync(stateFile);
        mkdirSync(stateFile);
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'state/fold-failed', message: expect.stringContaining(`into ${stateFile}`) });
    expect(await readdir(join(dir, '.coursesync'))).toContain('state.journal');
    expect(emu.stats().byRoute['POST /lessons']).toBe(3);
  });
});
