/**
 * Names of built-in object members (every own property of Object.prototype: `constructor`,
 * `toString`, `__proto__`, …) used as lesson keys, aliases, section and program folders and
 * file names: validate, plan and apply treat them as any other name, against the emulator
 * (in-process), and one repo goes through the built CLI. A hand-edited state with a
 * `__proto__` lesson entry is refused with a clear error, never rewritten.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCourse } from '../../src/apply/apply-course.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { LESSON_KEY_PATTERN } from '../../src/model/lesson.js';
import { hasChanges } from '../../src/plan/describe-change.js';
import { loadCourse } from '../../src/load/load-course.js';
import { readStateFile } from '../../src/state/state-file.js';
import { buildPlan } from '../../src/sync/build-plan.js';
import { lesson, runCli, writeRepo } from '../e2e/helpers.js';
import { schoolSections, useTestSchool } from '../apply/helpers.js';

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const KEYS = NAMES.filter((n) => LESSON_KEY_PATTERN.test(n));
const NOT_KEYS = NAMES.filter((n) => !LESSON_KEY_PATTERN.test(n));

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

/** A repo whose program folder, section folder and lesson file are all named `name`. */
function repoNamed(name: string, lessonText: string): Record<string, string> {
  return {
    [`${name}/program.yaml`]: 'id: prog_intro\n',
    [`${name}/${name}/section.yaml`]: 'id: sec_start\n',
    [`${name}/${name}/01-${name}.md`]: lessonText,
    [`${name}/other/section.yaml`]: 'name: Types\n',
    [`${name}/other/01-plain.md`]: lesson('name: Plain\nlesson_type: text'),
  };
}

async function lessonNames(): Promise<string[]> {
  return [...(await schoolSections(emu)).values()].flat().map((l) => l.name).sort();
}

describe('built-in object member names', () => {
  it.each(KEYS)('%s as program folder, section folder, file name, key and alias: validate, plan, apply, rename, apply', async (name) => {
    const dir = await writeRepo(repoNamed(name, lesson(`name: Lesson ${name}\nlesson_type: text`)));
    const compiled = await loadCourse(dir);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compiled.desired?.programs[0]?.sections.flatMap((s) => s.lessons.map((l) => l.key)).sort()).toEqual([name, 'plain'].sort());

    const first = await applyCourse(dir, { env });
    expect(first.result?.outcomes.map((o) => o.status)).toEqual(['done', 'done']);
    expect(await lessonNames()).toEqual([`Lesson ${name}`, 'Plain'].sort());
    expect(Object.keys((await readStateFile(dir)).state.lessons).sort()).toEqual([name, 'plain'].sort());
    expect(hasChanges((await buildPlan(dir, { env })).plan)).toBe(false);

    // Renamed: the new key `renamed` keeps the lesson through `aliases: [<name>]`; `plain` takes
    // `<name>` as an alias of its own in the other folder only after the rename is applied.
    await writeRepo({ [`${name}/${name}/01-${name}.md`]: lesson(`key: renamed\naliases: [${name}]\nname: Lesson ${name} renamed\nlesson_type: text`) }, dir);
    const renamed = await buildPlan(dir, { env });
    expect(renamed.plan.renames).toEqual([expect.objectContaining({ from: name, to: 'renamed' })]);
    const second = await applyCourse(dir, { env });
    expect(second.result?.outcomes.map((o) => o.status)).toEqual(['done']);
    expect(await lessonNames()).toEqual([`Lesson ${name} renamed`, 'Plain'].sort());
    expect(Object.keys((await readStateFile(dir)).state.lessons).sort()).toEqual(['plain', 'renamed']);
    expect(hasChanges((await buildPlan(dir, { env })).plan)).toBe(false);
  });

  it.each(NOT_KEYS)('%s as folders and file name: the key it would give is refused by validate, naming the file', async (name) => {
    const dir = await writeRepo(repoNamed(name, lesson(`name: Lesson ${name}\nlesson_type: text`)));
    const compiled = await loadCourse(dir);
    expect(compiled.desired).toBeUndefined();
    expect(compiled.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'lesson/invalid-key', file: `${name}/${name}/01-${name}.md` })]);
    // With a valid `key:` the same folders and file plan and apply normally.
    await writeRepo({ [`${name}/${name}/01-${name}.md`]: lesson(`key: k1\naliases: [k0]\nname: Lesson ${name}\nlesson_type: text`) }, dir);
    const result = await applyCourse(dir, { env });
    expect(result.result?.outcomes.map((o) => o.status)).toEqual(['done', 'done']);
    expect(hasChanges((await buildPlan(dir, { env })).plan)).toBe(false);
  });

  it('every name as a section folder `name:`-resolved and kept in state', async () => {
    const files: Record<string, string> = { 'p/program.yaml': 'id: prog_advanced\n' };
    const sections = ['Generics', 'Patterns', 'Archive'];
    NAMES.slice(0, 3).forEach((name, i) => {
      files[`p/${name}/section.yaml`] = `name: ${sections[i]}\n`;
      files[`p/${name}/01-l${i}.md`] = lesson(`name: In ${name}\nlesson_type: text`);
    });
    const dir = await writeRepo(files);
    const result = await applyCourse(dir, { env });
    expect(result.result?.outcomes.map((o) => o.status)).toEqual(['done', 'done', 'done']);
    const { state } = await readStateFile(dir);
    expect(Object.keys(state.sections).sort()).toEqual(NAMES.slice(0, 3).map((n) => `p/${n}`).sort());
    expect(hasChanges((await buildPlan(dir, { env })).plan)).toBe(false);
  });

  it('a state with a `__proto__` lesson entry is refused with a clear error and left as it is', async () => {
    const dir = await writeRepo(repoNamed('toString', lesson('name: T\nlesson_type: text')));
    await applyCourse(dir, { env });
    const file = join(dir, '.coursesync/state.json');
    const text = await readFile(file, 'utf8');
    const hacked = text.replace('"lessons": {', '"lessons": {\n    "__proto__": {"id": "les_x", "program_id": "prog_intro", "section_id": "sec_start", "position": 1, "path": "x.md", "applied": {}, "response": {}},');
    expect(hacked).not.toBe(text);
    await writeFile(file, hacked);
    await expect(readStateFile(dir)).rejects.toThrow(/lessons\.__proto__.*not a lesson key/);
    await expect(applyCourse(dir, { env })).rejects.toMatchObject({ code: 'state/invalid' });
    expect(await readFile(file, 'utf8')).toBe(hacked);
  });

  it('through the built CLI: validate, plan --refresh and apply of a repo named constructor', async () => {
    const dir = await writeRepo(repoNamed('constructor', lesson('name: Built-in\nlesson_type: text\naliases: [toString, valueOf]')));
    for (const args of [['validate', dir], ['plan', dir, '--refresh'], ['apply', dir, '--yes'], ['plan', dir, '--refresh', '--detailed-exitcode']]) {
      const r = await runCli(args, env);
      expect(r.stderr, args.join(' ')).not.toMatch(/internal error|\n\s+at /);
      expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
    }
    expect(await lessonNames()).toEqual(['Built-in', 'Plain']);
  });
});
