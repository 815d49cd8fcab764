/**
 * Environments end to end (docs/environments.md), what the environments*.test.ts files share:
 * one course repo, two schools (two emulators on two free ports, each with its own ids and its
 * own key) per test file, and the built CLI. `staging` and `production` are live bindings, set
 * before the file's first test.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startEmulator, type RunningEmulator, type SeedInput } from '../../src/emulator/index.js';
import { lesson, removeRepos, runCli } from './helpers.js';

export const STAGING_KEY = 'tok_STAGING_7f3a';
export const PRODUCTION_KEY = 'tok_PRODUCTION_91bc';

/** A school: one program with a section by id and one found by name, under ids of its own. */
function seed(token: string, p: string): SeedInput {
  return {
    api_keys: [{ token, programs: 'all' }],
    programs: [
      {
        id: `${p}_intro`,
        name: 'Intro to TypeScript',
        section_groups: [{ id: `${p}_grp`, name: 'Basics', position: 1 }],
        sections: [
          { id: `${p}_start`, name: 'Getting started', section_group_id: `${p}_grp`, position: 1 },
          { id: `${p}_types`, name: 'Types', section_group_id: `${p}_grp`, position: 2 },
        ],
        member_ids: [],
      },
    ],
  };
}

export let staging: RunningEmulator;
export let production: RunningEmulator;
export const env = () => ({ COURSESYNC_TOKEN_STAGING: STAGING_KEY, COURSESYNC_TOKEN_PRODUCTION: PRODUCTION_KEY });

/**
 * Registers the file's hooks: both schools started before its tests and closed after them, the
 * temp repos removed. With `resetEachTest` both schools go back to their seed before each test;
 * a file whose tests never change a school may instead share what it applied once.
 */
export function useTwoSchools({ resetEachTest }: { resetEachTest: boolean }): void {
  beforeAll(async () => {
    [staging, production] = await Promise.all([startEmulator({ port: 0, seed: seed(STAGING_KEY, 'stg') }), startEmulator({ port: 0, seed: seed(PRODUCTION_KEY, 'prd') })]);
  });
  afterAll(async () => {
    await Promise.all([staging?.close(), production?.close()]);
    await removeRepos();
  });
  if (!resetEachTest) return;
  beforeEach(async () => {
    for (const [emu, token] of [[staging, STAGING_KEY], [production, PRODUCTION_KEY]] as const) {
      await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    }
  });
}

export const CONFIG = () => `# Two schools: try in staging, then promote to production.
removed_lessons: keep
environments:
  staging:
    school:
      base_url: ${staging.url}
      lesson_url: https://staging.academy.example/products/{program_id}/lessons/{lesson_id}
    token_env: COURSESYNC_TOKEN_STAGING
  production:
    school:
      base_url: ${production.url}
      lesson_url: https://academy.example/products/{program_id}/lessons/{lesson_id}
    token_env: COURSESYNC_TOKEN_PRODUCTION
    promote_from: staging
`;

const NARROWING = lesson(
  'name: Narrowing\nlesson_type: text\ndescription: How `typeof` and `in` narrow a union.',
  `TypeScript narrows a union when a check rules members out.

| check | narrows to |
|---|---|
| \`typeof x === "string"\` | \`string\` |
| \`"kind" in x\` | members with \`kind\` |

\`\`\`ts
function len(x: string | string[]): number {
  return typeof x === 'string' ? x.length : x.length;
}
\`\`\`

See [the first lesson](../a/1-welcome.md) for the setup.
`,
);

export function repoFiles(): Record<string, string> {
  return {
    'coursesync.yaml': CONFIG(),
    'intro/program.yaml': 'name: Intro to TypeScript\nid:\n  staging: stg_intro\n  production: prd_intro\n',
    'intro/a/section.yaml': 'id: {staging: stg_start, production: prd_start}\n',
    'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', 'Welcome to the course.\n\n- install Node.js 20\n- run `npm install`\n'),
    'intro/a/2-editor.md': lesson('name: Setting up your editor\nlesson_type: text', 'Use any editor with a TypeScript language server.\n'),
    'intro/b/section.yaml': 'name: Types\n',
    'intro/b/1-narrowing.md': NARROWING,
  };
}

export interface SchoolLesson {
  id: string;
  name: string;
  body: string;
  section_id: string;
  position: number;
}

/** Every lesson of a school, by name. */
export async function lessonsOf(emu: RunningEmulator, token: string): Promise<Map<string, SchoolLesson>> {
  const res = await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${token}` } });
  const state = (await res.json()) as { programs: Array<{ sections: Array<{ lessons: SchoolLesson[] }> }> };
  return new Map(state.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons.map((l) => [l.name, l] as const))));
}

export const requests = () => staging.stats().requests + production.stats().requests;

/** Run a command and check it sent no request to either school. */
export async function refusedBeforeAnyRequest(args: string[], extra: Record<string, string> = {}) {
  const before = requests();
  const r = await runCli(args, { ...env(), ...extra });
  expect(requests(), r.stderr).toBe(before);
  expect(r.code).not.toBe(0);
  expect(r.stderr).not.toContain(STAGING_KEY);
  expect(r.stderr).not.toContain(PRODUCTION_KEY);
  return r;
}
