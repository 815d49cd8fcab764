/** Seeds (docs/school-api.md#choices-where-the-api-is-silent): YAML files, zod validation, clear errors naming the file. */
import { describe, expect, it } from 'vitest';
import { CoursesyncError } from '../../src/diagnostics/errors.js';
import { DEFAULT_SEED, parseSeed, readSeedFile, startEmulator } from '../../src/emulator/index.js';
import { call } from './helpers.js';

const fixture = (name: string) => `test/fixtures/emulator/${name}`;

describe('seed files', () => {
  it('starts from a seed file, with seeded lessons and steps', async () => {
    const emu = await startEmulator({ port: 0, seed: fixture('small-seed.yaml') });
    try {
      // the demo token is not a key of this school
      expect(await call(emu, 'GET', '/custom_code')).toMatchObject({ status: 401, body: { error: 'Access denied' } });
      expect(await call(emu, 'GET', '/__emulator/state')).toMatchObject({ status: 401, body: { error: 'Access denied' } });
      const state = await call(emu, 'GET', '/__emulator/state', undefined, 'small-token');
      const seeded = state.body.programs[0].sections[0].lessons[0];
      expect(seeded).toMatchObject({ id: 'les_seeded', position: 3, body: '<p>hi</p>' });
      expect(seeded.steps.map((s: any) => s.step_type)).toEqual(['completion', 'quiz']);
      const created = await call(emu, 'POST', '/lessons', { section_id: 'sec_s', name: 'New' }, 'small-token');
      expect(created.body.position).toBe(4);
    } finally {
      await emu.close();
    }
  });

  it.each([
    ['bad-seed.yaml', /bad-seed\.yaml: invalid seed: section sec_x names section_group_id grp_missing/],
    ['broken-yaml-seed.yaml', /broken-yaml-seed\.yaml:\d+:\d+: the seed is not valid YAML/],
    ['wrong-type-seed.yaml', /^test\/fixtures\/emulator\/wrong-type-seed\.yaml:10:19: invalid seed at programs\.0\.sections\.0\.position: /],
    ['missing.yaml', /cannot read seed file .*missing\.yaml: ENOENT/],
  ])('%s is a CoursesyncError naming the file', async (name, message) => {
    const err = await readSeedFile(fixture(name)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoursesyncError);
    expect((err as CoursesyncError).message).toMatch(message);
    expect((err as CoursesyncError).hint).toEqual(expect.any(String));
  });

  it('rejects unknown fields and wrong types with the field path', () => {
    expect(() => parseSeed({ api_keys: [{ token: 't', programs: 'some' }] }, 'x.yaml')).toThrow(/x\.yaml: invalid seed at api_keys\.0\.programs/);
    expect(() => parseSeed({ api_keys: [{ token: 't', programs: 'all' }], colour: 1 }, 'x.yaml')).toThrow(/x\.yaml: invalid seed at colour: /);
  });

  it('the default seed holds the ids other tests rely on', () => {
    const seed = parseSeed(DEFAULT_SEED, 'default');
    expect(seed.api_keys.map((k) => k.token)).toEqual(['demo-token', 'partner-token']);
    expect(seed.programs.map((p) => [p.id, p.sections.map((s) => s.id)])).toEqual([
      ['prog_intro', ['sec_start', 'sec_types', 'sec_tooling']],
      ['prog_advanced', ['sec_generics', 'sec_patterns', 'sec_archive']],
      ['prog_partner', ['sec_partner']],
    ]);
  });
});
