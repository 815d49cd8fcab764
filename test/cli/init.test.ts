/**
 * `coursesync init` through the built CLI, in a fresh git repo: every file it writes, a re-run
 * that keeps an edited file and adds a deleted one, and a fresh repo that validates to the
 * "no program yet" error.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_SEED, startEmulator, type RunningEmulator, type SeedInput } from '../../src/emulator/index.js';
import { CourseConfigSchema } from '../../src/model/config.js';
import { LessonDefaultsSchema } from '../../src/model/lesson.js';
import { CONFIG_TEMPLATE } from '../../src/source/init-templates.js';
import { EXAMPLES, runCli } from '../e2e/helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** An empty git repo, as a course team starts one. */
async function emptyGitRepo(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-init-'));
  dirs.push(dir);
  execFileSync('git', ['init', '--quiet', dir]);
  return dir;
}

const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');
const WORKFLOWS = ['coursesync-plan.yml', 'coursesync-apply.yml'];

describe('coursesync init', () => {
  it('writes the config, ignore entries, both workflows and the editor settings into an empty repo', async () => {
    const dir = await emptyGitRepo();
    const r = await runCli(['init', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^\+ coursesync\.yaml  \(written\)\n\+ \.gitignore  \(written\)\n\+ \.github\/workflows\/coursesync-plan\.yml  \(written\)\n\+ \.github\/workflows\/coursesync-apply\.yml  \(written\)\n\+ \.vscode\/settings\.json  \(written\)\n\+ \.vscode\/extensions\.json  \(written\)\n\+ \.remarkrc\.mjs  \(written\)\nNext: /,
    );

    // coursesync.yaml: every option commented out, so it means the defaults, with the schema modeline.
    const config = await read(dir, 'coursesync.yaml');
    expect(config.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/coursesync/schema/coursesync.schema.json');
    expect(parse(config)).toBeNull();

    // The workflows are the shipped templates, which run the pinned copy.
    for (const name of WORKFLOWS) {
      const text = await read(dir, `.github/workflows/${name}`);
      expect(text).toBe(await readFile(join(EXAMPLES, 'ci/github', name), 'utf8'));
      expect(text).toContain('run: npm ci');
      expect(text).not.toMatch(/npx --yes|coursesync@\d/);
    }

    // Editor settings: each YAML file kind mapped to a schema the installed package ships.
    const settings = JSON.parse(await read(dir, '.vscode/settings.json')) as { 'yaml.schemas': Record<string, string> };
    expect(settings['yaml.schemas']).toEqual({
      './node_modules/coursesync/schema/coursesync.schema.json': 'coursesync.yaml',
      './node_modules/coursesync/schema/program.schema.json': '**/program.yaml',
      './node_modules/coursesync/schema/section.schema.json': '**/section.yaml',
      './node_modules/coursesync/schema/webhooks.schema.json': 'webhooks.yaml',
    });
    for (const schema of Object.keys(settings['yaml.schemas'])) {
      await expect(readFile(join(import.meta.dirname, '../..', schema.replace('./node_modules/coursesync/', '')), 'utf8')).resolves.toContain('"$schema"');
    }

    // Lesson front-matter: remark-lint with the lesson schema the installed package ships.
    expect(await read(dir, '.remarkrc.mjs')).toContain("'./node_modules/coursesync/schema/lesson.schema.json': ['**/*.md']");
    expect(JSON.parse(await read(dir, '.vscode/extensions.json'))).toEqual({ recommendations: ['redhat.vscode-yaml', 'unifiedjs.vscode-remark'] });
    expect(r.stdout).toContain('npm install --save-dev remark-frontmatter remark-lint-frontmatter-schema');

    // git ignores what coursesync writes locally, and not the state.
    const ignored = (path: string) => {
      try {
        execFileSync('git', ['-C', dir, 'check-ignore', '--quiet', path]);
        return true;
      } catch {
        return false;
      }
    };
    expect(ignored('.coursesync/cache/render.json')).toBe(true);
    expect(ignored('.coursesync/state.lock')).toBe(true);
    expect(ignored('.coursesync/state.json.123.abcdef12.tmp')).toBe(true);
    expect(ignored('node_modules/coursesync/package.json')).toBe(true);
    // The folder the apply workflow builds the assets into (`assets --out _site`) is never committed.
    expect(ignored('_site/img/logo.3f2a9c1e.png')).toBe(true);
    expect(ignored('.coursesync/state.json')).toBe(false);
    expect(ignored('.coursesync/env/staging/state.lock')).toBe(true);
    expect(ignored('.coursesync/env/staging/state.json')).toBe(false);
  });

  it('run again, adds only what is missing and never overwrites an edited file', async () => {
    const dir = await emptyGitRepo();
    await writeFile(join(dir, '.gitignore'), 'dist/\nnode_modules/\n');
    expect((await runCli(['init'], {}, dir)).code).toBe(0);
    expect(await read(dir, '.gitignore')).toBe(
      'dist/\nnode_modules/\n\n# coursesync: local caches, the apply lock and temporary files (the state is committed)\n.coursesync/cache/\n.coursesync/state.lock\n.coursesync/*.tmp\n.coursesync/env/*/state.lock\n.coursesync/env/*/*.tmp\n_site/\n',
    );

    const edited = (await read(dir, 'coursesync.yaml')).replace('# removed_lessons: keep', 'removed_lessons: unpublish');
    await writeFile(join(dir, 'coursesync.yaml'), edited);
    const editedPlan = (await read(dir, '.github/workflows/coursesync-plan.yml')) + '# our own step\n';
    await writeFile(join(dir, '.github/workflows/coursesync-plan.yml'), editedPlan);
    await unlink(join(dir, '.github/workflows/coursesync-apply.yml'));
    const gitignore = await read(dir, '.gitignore');

    const r = await runCli(['init'], {}, dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('! coursesync.yaml  (kept as it is: it differs from what init writes');
    expect(r.stdout).toContain('! .github/workflows/coursesync-plan.yml  (kept as it is:');
    expect(r.stdout).toContain('+ .github/workflows/coursesync-apply.yml  (written)');
    expect(r.stdout).toContain('= .gitignore  (already there)');
    expect(r.stdout).toContain('= .vscode/settings.json  (already there)');
    expect(r.stdout).toContain('= .remarkrc.mjs  (already there)');
    expect(await read(dir, 'coursesync.yaml')).toBe(edited);
    expect(await read(dir, '.github/workflows/coursesync-plan.yml')).toBe(editedPlan);
    expect(await read(dir, '.gitignore')).toBe(gitignore);
    expect(await read(dir, '.github/workflows/coursesync-apply.yml')).toBe(await readFile(join(EXAMPLES, 'ci/github/coursesync-apply.yml'), 'utf8'));

    const again = await runCli(['init'], {}, dir);
    expect(again.stdout).toMatch(/Nothing to add: the repo is set up\.\n$/);
  });

  it('refuses a folder inside another course repo, and writes nothing', async () => {
    const dir = await emptyGitRepo();
    await runCli(['init', dir]);
    const r = await runCli(['init', join(dir, 'sub')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'sub')} lies inside the course repo ${dir} (which holds coursesync.yaml)`);
    expect(r.stdout).toBe('');
    await expect(readFile(join(dir, 'sub', 'coursesync.yaml'), 'utf8')).rejects.toThrow();
  });

  it('a fresh repo validates to one error that explains there is no program yet', async () => {
    const dir = await emptyGitRepo();
    await runCli(['init', dir]);
    const r = await runCli(['validate', dir], { NO_COLOR: '1' });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('no program folder found (a folder holding program.yaml) [repo/no-programs]');
    expect(r.stdout + r.stderr).toContain('hint: add a folder holding program.yaml with `id: <program id>`');
    expect(r.stdout + r.stderr).toContain('0 programs, 0 sections, 0 lessons: 1 error');
  });

  it('the config names every option, and each commented example is valid once uncommented', () => {
    for (const key of Object.keys(CourseConfigSchema.shape)) expect(CONFIG_TEMPLATE).toMatch(new RegExp(`^# ${key}:`, 'm'));
    for (const key of ['base_url', 'timeout_ms', 'lesson_url']) expect(CONFIG_TEMPLATE).toMatch(new RegExp(`^#   ${key}: `, 'm'));
    for (const key of Object.keys(LessonDefaultsSchema.shape)) expect(CONFIG_TEMPLATE).toMatch(new RegExp(`^#   ${key}: `, 'm'));
    // Uncomment the YAML lines (`# key:` and their indented children), keep the prose comments.
    const yamlLines: string[] = [];
    let inBlock = false;
    for (const l of CONFIG_TEMPLATE.split('\n')) {
      if (/^# [a-z_]+:/.test(l)) inBlock = true;
      else if (!l.startsWith('#   ')) inBlock = false;
      if (inBlock && !/^# {3}#/.test(l)) yamlLines.push(l.slice(2));
    }
    const uncommented = parse(yamlLines.join('\n')) as unknown;
    expect(CourseConfigSchema.safeParse(uncommented).error).toBeUndefined();
  });
});

describe('coursesync init: editor settings merged into existing files', () => {
  it('adds only the missing schema mappings and recommendations; keeps every other setting and an edited mapping', async () => {
    const dir = await emptyGitRepo();
    await mkdir(join(dir, '.vscode'));
    const mine = {
      'editor.rulers': [100],
      'yaml.schemas': { './node_modules/coursesync/schema/section.schema.json': 'courses/*/*/section.yaml', 'https://json.schemastore.org/github-workflow.json': '.github/workflows/*.yml' },
    };
    await writeFile(join(dir, '.vscode/settings.json'), JSON.stringify(mine, null, 4));
    await writeFile(join(dir, '.vscode/extensions.json'), JSON.stringify({ recommendations: ['esbenp.prettier-vscode', 'redhat.vscode-yaml'] }));
    const r = await runCli(['init'], {}, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('~ .vscode/settings.json  (added yaml.schemas: ./node_modules/coursesync/schema/coursesync.schema.json, yaml.schemas: ./node_modules/coursesync/schema/program.schema.json, yaml.schemas: ./node_modules/coursesync/schema/webhooks.schema.json)');
    expect(r.stdout).toContain('~ .vscode/extensions.json  (added recommendations: unifiedjs.vscode-remark)');
    const settings = JSON.parse(await read(dir, '.vscode/settings.json')) as Record<string, unknown>;
    expect(settings).toEqual({
      'editor.rulers': [100],
      'yaml.schemas': {
        './node_modules/coursesync/schema/section.schema.json': 'courses/*/*/section.yaml',
        'https://json.schemastore.org/github-workflow.json': '.github/workflows/*.yml',
        './node_modules/coursesync/schema/coursesync.schema.json': 'coursesync.yaml',
        './node_modules/coursesync/schema/program.schema.json': '**/program.yaml',
        './node_modules/coursesync/schema/webhooks.schema.json': 'webhooks.yaml',
      },
    });
    expect(JSON.parse(await read(dir, '.vscode/extensions.json'))).toEqual({ recommendations: ['esbenp.prettier-vscode', 'redhat.vscode-yaml', 'unifiedjs.vscode-remark'] });
    expect((await runCli(['init'], {}, dir)).stdout).toContain('= .vscode/settings.json  (already there)');
  });

  it('a settings file with comments (JSON with comments, as VS Code allows) is kept as it is, with what to add by hand', async () => {
    const dir = await emptyGitRepo();
    await mkdir(join(dir, '.vscode'));
    const text = '{\n  // our team settings\n  "editor.tabSize": 2\n}\n';
    await writeFile(join(dir, '.vscode/settings.json'), text);
    const r = await runCli(['init'], {}, dir);
    expect(r.stdout).toContain('! .vscode/settings.json  (kept as it is: it is not plain JSON (comments?): add yaml.schemas from docs/editors.md by hand)');
    expect(await read(dir, '.vscode/settings.json')).toBe(text);
  });
});

describe('coursesync init with a token: program and section folders from the school', () => {
  const TOKEN = 'tok_INIT_SECRET_4b7e1a';
  const seed = (withTooling: boolean): SeedInput => ({
    ...DEFAULT_SEED,
    api_keys: [{ token: TOKEN, programs: 'all' }],
    programs: DEFAULT_SEED.programs!.map((p) => (p.id === 'prog_intro' && !withTooling ? { ...p, sections: p.sections!.filter((s) => s.id !== 'sec_tooling') } : p)),
  });
  const emus: RunningEmulator[] = [];
  afterAll(async () => {
    await Promise.all(emus.map((e) => e.close()));
  });
  async function school(withTooling: boolean): Promise<Record<string, string>> {
    const emu = await startEmulator({ seed: seed(withTooling) });
    emus.push(emu);
    return { COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };
  }

  it('writes program.yaml and a section.yaml per section; run again, adds the section new in the school and keeps every edit', async () => {
    const dir = await emptyGitRepo();
    const before = await school(false);
    const r = await runCli(['init', '--program', 'prog_intro'], before, dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('+ prog-intro/program.yaml  (written)\n+ prog-intro/01-getting-started/section.yaml  (written)\n+ prog-intro/02-types/section.yaml  (written)\n');
    expect(await read(dir, 'prog-intro/program.yaml')).toBe('id: "prog_intro"\n');
    expect(await read(dir, 'prog-intro/02-types/section.yaml')).toBe('# Types (the section\'s name in the school)\nid: "sec_types"\n');

    // The team edits a section.yaml and renames a folder; then the school gains a section.
    const edited = '# Getting started\nid: "sec_start"\nlesson_defaults:\n  lesson_type: text\n';
    await writeFile(join(dir, 'prog-intro/01-getting-started/section.yaml'), edited);
    await rename(join(dir, 'prog-intro/02-types'), join(dir, 'prog-intro/02-basic-types'));
    await writeFile(join(dir, 'prog-intro/02-basic-types/01-hello.md'), '---\nname: Hello types\nlesson_type: text\n---\n\n| type | example |\n|---|---|\n| string | `"a"` |\n');

    const after = await school(true);
    const again = await runCli(['init'], after, dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('+ prog-intro/03-tooling/section.yaml  (written)');
    expect(again.stdout).not.toContain('02-types');
    expect(await read(dir, 'prog-intro/01-getting-started/section.yaml')).toBe(edited);
    expect(await read(dir, 'prog-intro/03-tooling/section.yaml')).toBe('# Tooling (the section\'s name in the school)\nid: "sec_tooling"\n');
    expect((await runCli(['init'], after, dir)).stdout).toContain('= prog-intro/program.yaml  (program prog_intro: a folder for every section)');

    const validate = await runCli(['validate'], { NO_COLOR: '1' }, dir);
    expect(validate.stdout + validate.stderr).toMatch(/1 program, 3 sections, 1 lesson: valid/);
    expect(validate.code).toBe(0);
    for (const out of [r, again]) expect(out.stdout + out.stderr).not.toContain(TOKEN);
  });

  it('a section named by `name:` is not added twice; a second program gets its own folder', async () => {
    const dir = await emptyGitRepo();
    const env = await school(true);
    await mkdir(join(dir, 'intro/basics'), { recursive: true });
    await writeFile(join(dir, 'intro/program.yaml'), 'id: prog_intro\n');
    await writeFile(join(dir, 'intro/basics/section.yaml'), 'name: Types\n');
    const r = await runCli(['init', '--program', 'prog_advanced'], env, dir);
    expect(r.code, r.stderr).toBe(0);
    const written = r.stdout.split('\n').filter((l) => l.startsWith('+ ') && l.includes('section.yaml'));
    expect(written).toEqual([
      '+ intro/01-getting-started/section.yaml  (written)',
      '+ intro/03-tooling/section.yaml  (written)',
      '+ prog-advanced/01-generics/section.yaml  (written)',
      '+ prog-advanced/02-patterns/section.yaml  (written)',
      '+ prog-advanced/03-archive/section.yaml  (written)',
    ].sort((a, b) => a.localeCompare(b)));
    expect(await read(dir, 'intro/program.yaml')).toBe('id: prog_intro\n');
  });

  it('reads the token from --token-file and the address from --base-url; an unknown program is named in the error', async () => {
    const dir = await emptyGitRepo();
    const { COURSESYNC_BASE_URL: url } = await school(true);
    const tokenFile = join(dir, '..', `${dir.split('/').pop()}.token`);
    dirs.push(tokenFile);
    await writeFile(tokenFile, `${TOKEN}\n`);
    const r = await runCli(['init', dir, '--program', 'prog_advanced', '--token-file', tokenFile, '--base-url', url!]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+ prog-advanced/03-archive/section.yaml  (written)');
    await rm(join(dir, 'prog-advanced/02-patterns'), { recursive: true });
    const missing = await runCli(['init', dir, '--program', 'prog_nope', '--token-file', tokenFile, '--base-url', url!]);
    expect(missing.code).toBe(1);
    // The school's error comes before any folder is written: 02-patterns is not added back.
    await expect(readFile(join(dir, 'prog-advanced/02-patterns/section.yaml'), 'utf8')).rejects.toThrow();
    expect(missing.stderr).toContain('program prog_nope');
    expect(missing.stdout + missing.stderr).not.toContain(TOKEN);
    // The address is kept in coursesync.yaml as school.base_url, where the workflows read it.
    const config = await read(dir, 'coursesync.yaml');
    expect(parse(config)).toEqual({ school: { base_url: url } });
    expect(config).toContain(`school:\n  # API base address, including /api/v1 (COURSESYNC_BASE_URL or --base-url override it).\n  # The token never goes in this file: set COURSESYNC_TOKEN or use --token-file.\n  base_url: ${url}\n#   # Timeout`);
    expect(CourseConfigSchema.parse(parse(config)).school?.base_url).toBe(url);
  });

  it('--base-url without a token writes school.base_url; a plain http:// address to another host is refused before any file is written', async () => {
    const dir = await emptyGitRepo();
    const r = await runCli(['init', '--base-url', 'https://school.example.com/api/v1/'], {}, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(parse(await read(dir, 'coursesync.yaml'))).toEqual({ school: { base_url: 'https://school.example.com/api/v1' } });
    const other = await emptyGitRepo();
    const insecure = await runCli(['init', '--base-url', 'http://school.example.com/api/v1'], {}, other);
    expect(insecure.code).toBe(1);
    expect(insecure.stderr).toMatch(/--base-url/);
    await expect(readFile(join(other, 'coursesync.yaml'), 'utf8')).rejects.toThrow();
  });

  it('a wrong token fails with the school\'s answer explained, and never prints the token', async () => {
    const dir = await emptyGitRepo();
    const env = { ...(await school(true)), COURSESYNC_TOKEN: 'tok_WRONG_9f9f9f' };
    const r = await runCli(['init', '--program', 'prog_intro'], env, dir);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/401/);
    expect(r.stdout + r.stderr).not.toContain('tok_WRONG_9f9f9f');
  });
});
