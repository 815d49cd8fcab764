/**
 * Environments resolved into one configuration, and checked where a schema cannot see
 * (src/model/environments.ts), and ids per environment compiled from real files (loadCourse):
 * the chosen environment's id, a map that misses or adds an environment reported at its line.
 */
import { describe, expect, it } from 'vitest';
import { effectiveConfig, environmentProblems, idIn, MAX_ENVIRONMENTS } from '../../src/model/environments.js';
import { CourseConfigSchema } from '../../src/model/config.js';
import { loadCourse } from '../../src/load/load-course.js';
import { lesson, removeRepos, writeRepo } from '../e2e/helpers.js';
import { afterAll } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentOf } from '../../src/plan/promotion.js';

afterAll(removeRepos);

const config = CourseConfigSchema.parse({
  school: { base_url: 'https://school.example/api/v1', timeout_ms: 20000 },
  assets: { base_url: 'https://cdn.example/all/' },
  vars: { school_name: 'Academy', year: 2026, support: 'help@example.com' },
  environments: {
    staging: { school: { base_url: 'https://staging.example/api/v1' }, token_env: 'TOKEN_STAGING', vars: { school_name: 'Staging Academy' } },
    production: { token_env: 'TOKEN_PRODUCTION', promote_from: 'staging' },
  },
});

describe('how many environments', () => {
  it('at most MAX_ENVIRONMENTS (32): one more is refused with the limit named', () => {
    const envs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`school${i}`, { token_env: `TOKEN_${i}` }]));
    expect(CourseConfigSchema.safeParse({ environments: envs(MAX_ENVIRONMENTS) }).success).toBe(true);
    const over = CourseConfigSchema.safeParse({ environments: envs(MAX_ENVIRONMENTS + 1) });
    expect(over.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['environments', 'must name at most 32 environments']]);
  });
});

describe('effectiveConfig', () => {
  it('lays the environment\'s school, assets and vars over the top-level ones, field by field', () => {
    const staging = effectiveConfig(config, 'staging');
    expect(staging.school).toEqual({ base_url: 'https://staging.example/api/v1', timeout_ms: 20000 });
    expect(staging.assets).toEqual({ base_url: 'https://cdn.example/all/' });
    expect(staging.vars).toEqual({ school_name: 'Staging Academy', year: 2026, support: 'help@example.com' });
    const production = effectiveConfig(config, 'production');
    expect(production.school).toEqual(config.school);
    expect(production.vars).toEqual(config.vars);
    // Without an environment, the file as it is.
    expect(effectiveConfig(config, undefined)).toBe(config);
  });
});

describe('environmentProblems', () => {
  it('a promote_from that names no environment, itself, or a cycle; two environments on one token variable', () => {
    const bad = CourseConfigSchema.parse({
      environments: {
        a: { promote_from: 'b', token_env: 'T_A' },
        b: { promote_from: 'a', token_env: 'T_B' },
        c: { promote_from: 'c', token_env: 'T_C' },
        d: { promote_from: 'nope', token_env: 'T_A' },
      },
    });
    expect(environmentProblems(bad).map(([path, message]) => `${path.join('.')}: ${message}`)).toEqual([
      'environments.a.promote_from: promote_from makes a cycle (a ← b ← a)',
      'environments.b.promote_from: promote_from makes a cycle (b ← a ← b)',
      'environments.c.promote_from: environment c cannot be promoted from itself',
      'environments.d.promote_from: promote_from names "nope", which is not an environment (declared: a, b, c, d)',
      'environments.d.token_env: environments a and d both read their token from T_A: give each school its own token_env',
    ]);
    expect(environmentProblems(config)).toEqual([]);
  });

  it('idIn: one id, or the chosen environment\'s entry', () => {
    expect(idIn('prog_a', 'staging', ['staging'])).toBe('prog_a');
    expect(idIn({ staging: 'a', production: 'b' }, 'production', ['staging', 'production'])).toBe('b');
    expect(idIn({ staging: 'a', production: 'b' }, undefined, ['production', 'staging'])).toBe('b');
  });
});

describe('ids per environment in program.yaml and section.yaml', () => {
  const base = {
    'coursesync.yaml': 'environments:\n  staging: { token_env: T_STAGING }\n  production: { token_env: T_PRODUCTION }\n',
    'intro/program.yaml': 'id:\n  staging: stg_intro\n  production: prd_intro\n',
    'intro/a/section.yaml': 'id: { staging: stg_a, production: prd_a }\n',
    'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', 'Hello.'),
  };

  it('compile to the chosen environment\'s ids, and keep every environment\'s program id', async () => {
    const dir = await writeRepo(base);
    const result = await loadCourse(dir, { environment: 'production' });
    expect(result.diagnostics).toEqual([]);
    expect(result.desired!.environment).toBe('production');
    expect(result.desired!.programs[0]).toMatchObject({ id: 'prd_intro', ids: { staging: 'stg_intro', production: 'prd_intro' } });
    expect(result.desired!.programs[0]!.sections[0]!.ref).toEqual({ id: 'prd_a' });
  });

  it('a map that misses an environment or names an unknown one, or a map without environments: errors at their lines', async () => {
    const dir = await writeRepo({ ...base, 'intro/program.yaml': 'id:\n  staging: stg_intro\n  prod: prd_intro\n' });
    const result = await loadCourse(dir, { environment: 'staging' });
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      'intro/program.yaml:2:3 program/invalid-field id has no entry for environment production',
      'intro/program.yaml:3:3 program/invalid-field "prod" is not an environment (declared: staging, production)',
    ]);
    const plain = await writeRepo({ ...base, 'coursesync.yaml': 'removed_lessons: keep\n' });
    const without = await loadCourse(plain);
    expect(without.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      'intro/a/section.yaml:1 id is given per environment, but coursesync.yaml declares no environments',
      'intro/program.yaml:2 id is given per environment, but coursesync.yaml declares no environments',
    ]);
  });
});

describe('vars per environment (include\'s vars, laid over by environments.<name>.vars)', () => {
  const files = {
    'coursesync.yaml': [
      'vars: { school_name: Academy, support: help@example.com }',
      'environments:',
      '  staging: { token_env: T_STAGING, vars: { school_name: Staging Academy } }',
      '  production: { token_env: T_PRODUCTION, promote_from: staging }',
      '',
    ].join('\n'),
    'intro/program.yaml': 'id: prog_intro\n',
    'intro/a/section.yaml': 'id: sec_a\n',
    'intro/a/1-welcome.md': lesson('name: Welcome to {{ vars.school_name }}\nlesson_type: text', 'Write to {{ vars.support }} if **{{ vars.school_name }}** is not what you expected.\n\n| week | topic |\n|---|---|\n| 1 | basics |'),
  };

  it('each environment sees its vars; what it applies is the same content for promotion, and an edit of the file is not', async () => {
    const dir = await writeRepo(files);
    const staging = await loadCourse(dir, { environment: 'staging' });
    const production = await loadCourse(dir, { environment: 'production' });
    expect([...staging.diagnostics, ...production.diagnostics]).toEqual([]);
    const fields = (r: typeof staging) => r.desired!.programs[0]!.sections[0]!.lessons[0]!.fields;
    expect(fields(staging).name).toBe('Welcome to Staging Academy');
    expect(fields(staging).body).toContain('help@example.com</a> if <strong>Staging Academy</strong>');
    expect(fields(production).name).toBe('Welcome to Academy');
    // Vars differ by design between schools: promotion compares what the author wrote.
    expect(contentOf(production.desired!)).toEqual(contentOf(staging.desired!));
    await writeFile(join(dir, 'intro/a/1-welcome.md'), files['intro/a/1-welcome.md'].replace('basics', 'the basics'));
    const edited = await loadCourse(dir, { environment: 'production' });
    expect(contentOf(edited.desired!).lessons).not.toEqual(contentOf(staging.desired!).lessons);
  });

  it('an environment\'s var name follows the rules of the top-level vars', async () => {
    const dir = await writeRepo({ ...files, 'coursesync.yaml': files['coursesync.yaml'].replace('vars: { school_name: Staging Academy }', "vars: { 'school name': Staging Academy }") });
    const result = await loadCourse(dir, { environment: 'staging' });
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics[0]).toMatchObject({ file: 'coursesync.yaml', line: 3, code: 'config/invalid-field' });
    expect(result.diagnostics[0]!.message).toContain('environments.staging.vars.school name');
  });
});

describe('a book\'s sections: map per environment', () => {
  const files = {
    'coursesync.yaml': 'environments:\n  staging: { token_env: T_STAGING }\n  production: { token_env: T_PRODUCTION }\n',
    'book/program.yaml': 'id: { staging: stg_book, production: prd_book }\ntoc: SUMMARY.md\nsections:\n  Getting Started: { staging: stg_start, production: prd_start }\n  Reference: sec_ref\n',
    'book/SUMMARY.md': '# Summary\n\n- [Getting Started](start.md)\n    - [Installation](install.md)\n- [Reference](reference.md)\n',
    'book/start.md': '# Getting Started\n\nThis book walks through **installing** the tools, then a first program.\n',
    'book/install.md': '# Installation\n\nRun `rustup` and check the version:\n\n```sh\nrustc --version\n```\n',
    'book/reference.md': '# Reference\n\n| keyword | meaning |\n|---|---|\n| `fn` | a function |\n',
  };

  it('a chapter mapped per environment is the chosen environment\'s section; one id serves both', async () => {
    const dir = await writeRepo(files);
    for (const [name, start, book] of [['staging', 'stg_start', 'stg_book'], ['production', 'prd_start', 'prd_book']] as const) {
      const result = await loadCourse(dir, { environment: name });
      expect(result.diagnostics).toEqual([]);
      expect(result.desired!.programs[0]!.id).toBe(book);
      expect(result.desired!.programs[0]!.sections.map((s) => [s.ref, s.lessons.length])).toEqual([[{ id: start }, 2], [{ id: 'sec_ref' }, 1]]);
    }
  });

  it('a map that misses an environment is an error at its line, and the chapter\'s files are not called unlisted', async () => {
    const dir = await writeRepo({ ...files, 'book/program.yaml': files['book/program.yaml'].replace('{ staging: stg_start, production: prd_start }', '{ staging: stg_start }') });
    const result = await loadCourse(dir, { environment: 'staging' });
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`)).toEqual([
      'book/program.yaml:4 program/invalid-field the id of "Getting Started" has no entry for environment production',
    ]);
  });
});
