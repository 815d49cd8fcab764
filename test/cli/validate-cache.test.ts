/**
 * validate with the lesson cache (built CLI): unchanged clean lessons come from
 * `.coursesync/cache/lessons.json`, yet a warm run reports exactly what a cold run reports:
 * lessons with diagnostics are never cached, and cached lessons' references are resolved
 * against the repo as it is now.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'dist/bin/coursesync.js');
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A fresh copy of a fixture repo (no cache). */
function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-validate-cache-'));
  made.push(dir);
  cpSync(join(root, 'test/fixtures/repos', name), dir, { recursive: true });
  return dir;
}

function validate(dir: string) {
  const { GITHUB_ACTIONS: _ignored, ...base } = process.env;
  const r = spawnSync(process.execPath, [cli, 'validate', dir], { cwd: root, env: { ...base, NO_COLOR: '1' }, encoding: 'utf8' });
  // `text`: the diagnostics (stderr) followed by the summary (stdout), as a terminal shows them.
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, text: r.stderr + r.stdout };
}

/** validate with the cache removed first: what a fresh checkout reports. */
function validateCold(dir: string) {
  rmSync(join(dir, '.coursesync', 'cache'), { recursive: true, force: true });
  return validate(dir);
}

interface CacheFile {
  compiler: string;
  entries: Record<string, { refs: Array<{ url: string }> }>;
}
const cacheFile = (dir: string) => join(dir, '.coursesync', 'cache', 'lessons.json');
const readCache = (dir: string): CacheFile => JSON.parse(readFileSync(cacheFile(dir), 'utf8')) as CacheFile;
/** Paths of the lesson files the cache holds (a key is path \0 digest [\0 defaults]). */
const cachedPaths = (dir: string) => (existsSync(cacheFile(dir)) ? Object.keys(readCache(dir).entries).map((k) => k.split('\0')[0]).sort() : []);

const WELCOME = 'foundations/01-intro/01-welcome.md';
const ODIN_LESSONS = [WELCOME, 'foundations/01-intro/02-setup.md', 'foundations/02-project/01-recipes.md'];

describe('validate uses the lesson cache', () => {
  it('answers an unchanged clean lesson from the cache of this compiler, and compiles it again once its bytes change', () => {
    const dir = copyFixture('odin');
    expect(validate(dir)).toMatchObject({ code: 0, stdout: '1 program, 2 sections, 3 lessons: valid\n' });
    expect(cachedPaths(dir)).toEqual(ODIN_LESSONS);
    // Tamper with the cached welcome lesson: its first image now names a file that is not in
    // the repo. Only an answer from the cache can report it.
    const cache = readCache(dir);
    const key = Object.keys(cache.entries).find((k) => k.startsWith(`${WELCOME}\0`))!;
    expect(cache.entries[key]!.refs[0]!.url).toBe('images/clone_repo.png');
    cache.entries[key]!.refs[0]!.url = 'images/not-in-the-cache.png';
    writeFileSync(cacheFile(dir), JSON.stringify(cache));
    const warm = validate(dir);
    expect(warm.code).toBe(1);
    expect(warm.text).toMatch(/^foundations\/01-intro\/01-welcome\.md:9:1 error "images\/not-in-the-cache\.png": no file .* \[lesson\/missing-file\]$/m);
    // The same entries said to come from another compiler (another coursesync version): all
    // ignored, every lesson compiled from its source.
    writeFileSync(cacheFile(dir), JSON.stringify({ ...cache, compiler: '0'.repeat(64) }));
    expect(validate(dir)).toMatchObject({ code: 0, stdout: '1 program, 2 sections, 3 lessons: valid\n' });
    expect(JSON.stringify(readCache(dir))).not.toContain('not-in-the-cache');
    writeFileSync(cacheFile(dir), JSON.stringify(cache));
    expect(validate(dir)).toEqual(warm);
    // Another byte in the file: a new key, so the lesson is compiled from its source again.
    appendFileSync(join(dir, WELCOME), '\nOne more line.\n');
    expect(validate(dir)).toMatchObject({ code: 0, stdout: '1 program, 2 sections, 3 lessons: valid\n' });
    expect(JSON.stringify(readCache(dir))).not.toContain('not-in-the-cache');
  });

  it('a warm run still reports a deleted image and a renamed heading that cached lessons refer to, as a cold run does', () => {
    const dir = copyFixture('odin');
    expect(validate(dir).code).toBe(0);
    // The image used by two unchanged (cached) lessons disappears.
    rmSync(join(dir, 'foundations/01-intro/images/clone_repo.png'));
    const warm = validate(dir);
    expect(warm.code).toBe(1);
    expect(warm.text.split('\n').filter((l) => !l.startsWith('  hint: '))).toEqual([
      'foundations/01-intro/01-welcome.md:9:1 error "images/clone_repo.png": no file foundations/01-intro/images/clone_repo.png in the repo [lesson/missing-file]',
      'foundations/02-project/01-recipes.md:10:1 error "../01-intro/images/clone_repo.png": no file foundations/01-intro/images/clone_repo.png in the repo [lesson/missing-file]',
      '1 program, 2 sections, 3 lessons: 2 errors',
      '',
    ]);
    // The lessons were still answered from the cache: their bytes did not change.
    expect(cachedPaths(dir)).toEqual(ODIN_LESSONS);
    expect(validate(dir)).toEqual(warm);
    expect(validateCold(dir)).toEqual(warm);

    // The image is back; the heading the cached welcome lesson links to is renamed.
    cpSync(join(root, 'test/fixtures/repos/odin/foundations/01-intro/images/clone_repo.png'), join(dir, 'foundations/01-intro/images/clone_repo.png'));
    expect(validate(dir).code).toBe(0);
    const setup = join(dir, 'foundations/01-intro/02-setup.md');
    writeFileSync(setup, readFileSync(setup, 'utf8').replace('## Installing Git', '## Install Git'));
    const renamed = validate(dir);
    expect(renamed.code).toBe(1);
    expect(renamed.text).toMatch(
      /^foundations\/01-intro\/01-welcome\.md:3:14 error #installing-git: no heading or anchor with this id in foundations\/01-intro\/02-setup\.md \[lesson\/missing-anchor\]\n {2}hint: did you mean #install-git\?$/m,
    );
    expect(renamed.stdout).toMatch(/: 1 error\n$/);
    expect(cachedPaths(dir)).toContain(WELCOME);
    expect(validateCold(dir)).toEqual(renamed);
  });

  it('never caches a lesson with a warning: the warning is reported on every run', () => {
    const dir = copyFixture('odin');
    const warned = 'foundations/02-project/02-script-link.md';
    writeFileSync(
      join(dir, warned),
      '---\nname: A risky link\n---\n# A risky link\n\n- Read the [recipes](01-recipes.md) first.\n- Then [run this](javascript:alert(1)) at your own risk.\n\n> Links like this one are removed by some schools.\n',
    );
    const runs = [validateCold(dir), validate(dir), validate(dir)];
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.text).toMatch(/^foundations\/02-project\/02-script-link\.md:7:\d+ warning .*\[lesson\/javascript-url\]$/m);
      expect(r.stdout).toMatch(/: valid \(1 warning\)\n$/);
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(cachedPaths(dir)).toEqual(ODIN_LESSONS);
    // A clean edit of another lesson (a cache miss for it) does not change what is reported for this one.
    appendFileSync(join(dir, WELCOME), '\nOne more line.\n');
    expect(validate(dir).text).toBe(runs[0]!.text);
  });

  it('never caches a lesson with an error: every error is reported on every run', () => {
    const dir = copyFixture('forbidden-html');
    const runs = [validateCold(dir), validate(dir), validate(dir)];
    expect(runs[0]!.code).toBe(1);
    expect(runs[0]!.stdout).toMatch(/: 5 errors, 3 warnings\n$/);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(cachedPaths(dir)).toEqual([]);
  });
});
