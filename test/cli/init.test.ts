/**
 * `coursesync init` through the built CLI, in a fresh git repo: every file it writes, a re-run
 * that keeps an edited file and adds a deleted one, and a fresh repo that validates to the
 * "no program yet" error.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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
    expect(r.stdout).toMatch(/^\+ coursesync\.yaml  \(written\)\n\+ \.gitignore  \(written\)\n\+ \.github\/workflows\/coursesync-plan\.yml  \(written\)\n\+ \.github\/workflows\/coursesync-apply\.yml  \(written\)\n\+ \.vscode\/settings\.json  \(written\)\nNext: /);

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
    expect(ignored('.coursesync/state.json')).toBe(false);
  });

  it('run again, adds only what is missing and never overwrites an edited file', async () => {
    const dir = await emptyGitRepo();
    await writeFile(join(dir, '.gitignore'), 'dist/\nnode_modules/\n');
    expect((await runCli(['init'], {}, dir)).code).toBe(0);
    expect(await read(dir, '.gitignore')).toBe(
      'dist/\nnode_modules/\n\n# coursesync: local caches, the apply lock and temporary files (the state is committed)\n.coursesync/cache/\n.coursesync/state.lock\n.coursesync/*.tmp\n',
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
