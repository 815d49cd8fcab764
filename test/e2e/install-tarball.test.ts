/**
 * The install story as a course team follows it: coursesync packed (`npm pack`), installed into a
 * fresh repo's package.json and lockfile, then run the way the shipped workflows run it
 * (`npm ci`, then `npx --no coursesync …`, which never downloads a package). The package must
 * run as shipped (no build on install) and carry the schemas and workflow templates init uses.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lesson, writeRepo } from './helpers.js';

const exec = promisify(execFile);
const PACKAGE_ROOT = join(import.meta.dirname, '../..');
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'coursesync-install-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A clean environment: no npm_* settings inherited from the test runner, no colour switches. */
function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && !['NO_COLOR', 'FORCE_COLOR', 'COURSESYNC_TOKEN'].includes(k)) e[k] = v;
  return e;
}

async function sh(cwd: string, cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(cmd, args, { cwd, env: env() });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('installed from an npm pack tarball into a course repo', () => {
  it('npm install pins it in package.json and the lockfile; npm ci + npx --no coursesync run init and validate', async () => {
    // dist/ is already built (the global test setup): pack it as is.
    const packed = await sh(PACKAGE_ROOT, 'npm', ['pack', '--ignore-scripts', '--pack-destination', root]);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = packed.stdout.trim().split('\n').at(-1)!;

    const course = join(root, 'course');
    await mkdir(course);
    await sh(course, 'git', ['init', '--quiet']);
    await writeRepo({ 'package.json': '{ "name": "my-course", "private": true }\n' }, course);
    const install = await sh(course, 'npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', join(root, tarball)]);
    expect(install.code, install.stderr).toBe(0);
    const pkg = JSON.parse(await readFile(join(course, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies.coursesync).toMatch(/^file:.*coursesync-\d+\.\d+\.\d+\.tgz$/);
    expect(await readFile(join(course, 'package-lock.json'), 'utf8')).toContain('"node_modules/coursesync"');

    // What the workflows do on a fresh runner: install from the lockfile, run the pinned copy.
    await rm(join(course, 'node_modules'), { recursive: true });
    const ci = await sh(course, 'npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund']);
    expect(ci.code, ci.stderr).toBe(0);

    const init = await sh(course, 'npx', ['--no', 'coursesync', 'init']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('+ .github/workflows/coursesync-apply.yml  (written)');
    // Every schema the editor settings name is in the installed package.
    const settings = JSON.parse(await readFile(join(course, '.vscode/settings.json'), 'utf8')) as { 'yaml.schemas': Record<string, string> };
    for (const schema of Object.keys(settings['yaml.schemas'])) expect(await readFile(join(course, schema), 'utf8')).toContain('"$schema"');

    const empty = await sh(course, 'npx', ['--no', 'coursesync', 'validate']);
    expect(empty.code).toBe(1);
    expect(empty.stdout + empty.stderr).toContain('[repo/no-programs]');

    await writeRepo(
      {
        'intro/program.yaml': 'id: prog_intro\nname: Intro\n',
        'intro/01-start/section.yaml': 'id: sec_start\n',
        'intro/01-start/01-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\nRead [the guide](https://example.com/guide).\n\n```sh\nnpm ci\n```\n'),
      },
      course,
    );
    const valid = await sh(course, 'npx', ['--no', 'coursesync', 'validate']);
    expect(valid.stdout).toBe('1 program, 1 section, 1 lesson: valid\n');
    expect(valid.code).toBe(0);
  });
});
