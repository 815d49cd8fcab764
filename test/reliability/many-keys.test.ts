/**
 * YAML files of very many keys (a hostile repo, or a generated one): every check over them is
 * one pass, so a command answers in seconds where it took minutes. Each of these took longer
 * than its test's 180 s with the checks of before (each compared every key with every other:
 * 36 s for 40,000 unknown keys in a program.yaml, 6.7 s for 50,000 keys listed in a
 * section.yaml, 21 s for a lesson of 100,000 aliases, 10 s for a coursesync.yaml of 40,000
 * variables; and a coursesync.yaml of 20,000 environments ran out of memory); the outcome is what matters
 * here, every problem reported at its place.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { placeOf } from '../../src/diagnostics/diagnostic.js';
import { loadCourse } from '../../src/load/load-course.js';
import { parseYamlLeniently } from '../../src/source/read-yaml-leniently.js';
import { removeRepos, runCli, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const LESSON = '---\nname: Setup\nlesson_type: text\n---\n# Setup\n\nInstall Node 20, then run `npm ci`.\n';
const keys = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n');

describe('YAML files of very many keys', () => {
  it('a program.yaml of 100,000 unknown keys: each reported at its key', async () => {
    const dir = await writeRepo({ 'p/program.yaml': `id: prog_a\n${keys(100_000, (i) => `k${i}: ${i}`)}\n`, 'p/s/section.yaml': 'id: sec_a\n', 'p/s/01-setup.md': LESSON });
    const unknown = (await loadCourse(dir, { renderThreads: 1 })).diagnostics.filter((d) => d.code === 'program/unknown-key');
    expect(unknown).toHaveLength(100_000);
    expect(unknown.map(placeOf).slice(-2)).toEqual(['p/program.yaml:100000:1', 'p/program.yaml:100001:1']);
  });

  it('a section.yaml listing 300,000 keys that are no lesson: each reported at its line, the lesson said unlisted', async () => {
    const dir = await writeRepo({ 'p/program.yaml': 'id: prog_a\n', 'p/s/section.yaml': `id: sec_a\nlessons:\n${keys(300_000, (i) => `  - k${i}`)}\n`, 'p/s/01-setup.md': LESSON });
    const said = (await loadCourse(dir, { renderThreads: 1 })).diagnostics;
    const unknown = said.filter((d) => d.code === 'section/lessons-list-unknown');
    expect(unknown).toHaveLength(300_000);
    expect(placeOf(unknown.at(-1)!)).toBe('p/s/section.yaml:300002:5');
    expect(said.filter((d) => d.code === 'section/lessons-list-missing').map((d) => d.message)).toEqual(['lessons does not list "setup" (p/s/01-setup.md)']);
  });

  it("a lesson of 300,000 aliases, one repeated: only another lesson's key among them is reported, once", async () => {
    const aliases = keys(300_000, (i) => `  - setup-${i}`);
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_a\n',
      'p/s/section.yaml': 'id: sec_a\n',
      'p/s/01-setup.md': LESSON.replace('lesson_type: text\n', `lesson_type: text\naliases:\n${aliases}\n  - setup-7\n`),
      'p/s/02-next.md': '---\nname: Next\nkey: setup-299999\nlesson_type: text\n---\n# Next\n\nRun the tests.\n',
    });
    const said = (await loadCourse(dir, { renderThreads: 1 })).diagnostics.map((d) => `${placeOf(d)} ${d.code} ${d.message}`);
    expect(said).toEqual(['p/s/02-next.md:3:6 repo/duplicate-key key "setup-299999" is also used by p/s/01-setup.md']);
  });

  it('a coursesync.yaml of 200,000 variables, read for a hint: the last of a repeated key wins', () => {
    const value = parseYamlLeniently(`vars:\n${keys(200_000, (i) => `  v${i}: x${i}`)}\n  v7: again\n`) as { vars: Record<string, string> };
    expect(Object.keys(value.vars)).toHaveLength(200_000);
    expect(value.vars.v7).toBe('again');
  });

  it('a coursesync.yaml naming 20,000 environments: refused at once by validate and plan, each at once', async () => {
    // Before, validate compiled the course for every one of them at the same time, and ran out of memory.
    const envs = keys(20_000, (i) => `  env${i}:\n    school:\n      base_url: https://s${i}.example.com/api/v1`);
    const dir = await writeRepo({ 'coursesync.yaml': `environments:\n${envs}\n`, 'p/program.yaml': 'id: prog_a\n', 'p/s/section.yaml': 'id: sec_a\n', 'p/s/01-setup.md': LESSON });
    const validate = await runCli(['validate', dir]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('coursesync.yaml:2:3 error "environments" must name at most 32 environments [config/invalid-field]');
    expect(validate.stdout).toBe('1 program, 1 section, 1 lesson: 1 error\n');
    const plan = await runCli(['plan', dir, '--env', 'env7']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('"environments" must name at most 32 environments');
    expect(plan.stderr).not.toMatch(/\n\s+at /);
  });
});
