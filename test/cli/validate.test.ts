import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = fileURLToPath(new URL('../../dist/bin/coursesync.js', import.meta.url));
const copies: string[] = [];
afterAll(() => copies.forEach((d) => rmSync(d, { recursive: true, force: true })));
/**
 * A temporary copy of a repo of this project (`examples`, `test/fixtures/repos/<name>`):
 * validate keeps a lesson cache in the repo it checks, and the originals stay as committed.
 */
function copy(path: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-validate-'));
  copies.push(dir);
  cpSync(join(root, path), dir, { recursive: true, filter: (src) => !src.endsWith('.coursesync') });
  return dir;
}
const fixture = (name: string) => copy(`test/fixtures/repos/${name}`);

/** Run the built CLI (npm test builds first) from the repo root. */
function run(args: string[], env: Record<string, string> = {}) {
  const { GITHUB_ACTIONS: _ignored, ...base } = process.env;
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, env: { ...base, NO_COLOR: '1', ...env }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('coursesync validate (built CLI)', () => {
  it('exits 0 on the examples and prints the counts', () => {
    const r = run(['validate', copy('examples')]);
    expect(r.stdout).toBe('2 programs, 5 sections, 22 lessons: valid\n');
    expect(r.code).toBe(0);
  });

  it('prints every diagnostic sorted as path:line:col with a hint, then the summary, and exits 1', () => {
    const r = run(['validate', fixture('video-rules')]);
    expect(r.code).toBe(1);
    // Diagnostics on stderr, the summary on stdout.
    const lines = (r.stderr + r.stdout).trimEnd().split('\n');
    expect(r.stdout).toBe('1 program, 1 section, 5 lessons: 5 errors\n');
    expect(lines.filter((l) => !l.startsWith('  hint: '))).toEqual([
      'p/s/01-text-with-video.md:4:1 error "video" is only for video lessons, and this is a text lesson [lesson/video-not-allowed]',
      'p/s/02-two-sources.md:3:1 error "video" has 2 video sources (host_a, host_c); it needs exactly one [lesson/video-sources]',
      'p/s/03-no-source.md:3:1 error "video" has no video source; it needs exactly one [lesson/video-sources]',
      'p/s/04-embed-on-video.md:3:1 error "embed_code" is only for embed lessons, and this is a video lesson [lesson/embed-code-not-allowed]',
      'p/s/05-bad-url.md:4:11 error "video.host_d" is neither a video id nor a supported URL of host D [lesson/video-url]',
      '1 program, 1 section, 5 lessons: 5 errors',
    ]);
    expect(lines.filter((l) => l.startsWith('  hint: '))).toHaveLength(5);
    expect(r.stdout + r.stderr).not.toMatch(/Error:|\n\s+at /);
  });

  it('lists the problems of coursesync.yaml first: the other files are read with its settings, the defaults while it has errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-validate-'));
    copies.push(dir);
    const files: Record<string, string> = {
      // `video` is coursesync's own key, which cannot be left to another tool: the file is refused whole.
      'coursesync.yaml': 'front_matter:\n  ignore: [layout, video]\n',
      '01-basics/program.yaml': 'id: prog_intro\n',
      '01-basics/01-start/section.yaml': 'id: sec_start\n',
      '01-basics/01-start/01-hello.md': '---\nname: Hello\nlesson_type: text\nlayout: lecture\n---\n\nHello.\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const r = run(['validate', dir]);
    expect(r.code).toBe(1);
    // The lesson's error is only there because the settings were not applied; it sorts before
    // coursesync.yaml by path, and comes after it.
    expect(r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('  hint: '))).toEqual([
      'coursesync.yaml:2:20 error "front_matter.ignore.1" must not be a key coursesync reads itself [config/invalid-field]',
      '01-basics/01-start/01-hello.md:4:1 error unknown key "layout" [lesson/unknown-key]',
    ]);
  });

  it('--format json is versioned and complete', () => {
    const r = run(['validate', fixture('forbidden-html'), '--format', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { format_version: number; valid: boolean; counts: unknown; diagnostics: Array<{ file: string; line: number; column: number; code: string; severity: string }> };
    expect(report.format_version).toBe(1);
    expect(report.valid).toBe(false);
    expect(report.counts).toEqual({ programs: 1, sections: 1, lessons: 2 });
    expect(report.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual([
      'error lesson/forbidden-html',
      'error lesson/forbidden-html',
      'error lesson/forbidden-html',
      'error lesson/forbidden-html',
      'warning lesson/event-handler',
      'warning lesson/javascript-url',
      'error lesson/forbidden-html',
      'warning lesson/javascript-url',
    ]);
    expect(report.diagnostics[1]).toMatchObject({ file: 'p/s/01-markdown.md', line: 8, column: 6 });
  });

  it('writes GitHub annotations when GITHUB_ACTIONS=true', () => {
    const r = run(['validate', fixture('video-rules')], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('::error file=p/s/05-bad-url.md,line=4,col=11,title=lesson/video-url::"video.host_d" is neither a video id');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('::error '))).toHaveLength(5);
  });

  it('exits 1 on every invalid fixture repo, with one line per diagnostic', async () => {
    const { loadCourse } = await import('../../src/load/load-course.js');
    const { formatDiagnostic } = await import('../../src/diagnostics/diagnostic.js');
    for (const name of ['yaml-errors', 'fields', 'keys', 'lessons-list', 'layout', 'section-refs', 'config']) {
      const dir = fixture(name);
      const r = run(['validate', dir]);
      const expected = (await loadCourse(dir)).diagnostics.map(formatDiagnostic);
      expect(expected.length, name).toBeGreaterThan(0);
      expect([r.code, r.stderr], name).toEqual([1, expected.join('\n') + '\n']);
      expect(r.stdout, name).toMatch(/^[^\n]*: \d+ errors?(, \d+ warnings?)?\n$/);
    }
  });

  it('a missing folder is a one-line user error with a hint, exit 1, no stack trace', () => {
    const r = run(['validate', 'does/not/exist']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^coursesync: cannot read the course repo does\/not\/exist: ENOENT\n {2}hint: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('coursesync validate checks webhooks.yaml when the repo has one', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const withWebhooks = (yaml: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-validate-webhooks-'));
    made.push(dir);
    cpSync(join(root, 'test/fixtures/repos/valid'), dir, { recursive: true });
    writeFileSync(join(dir, 'webhooks.yaml'), yaml);
    return dir;
  };

  it('counts valid webhooks in the summary', () => {
    const dir = withWebhooks('- webhook_url: https://hooks.example.com/a\n  event_type: new_payment\n');
    const r = run(['validate', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/, 1 webhook: valid\n$/);
  });

  it('reports a bad webhook with its place and exits 1', () => {
    const dir = withWebhooks('- webhook_url: https://hooks.example.com/a\n  event_type: new_paymnt\n');
    const r = run(['validate', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^webhooks\.yaml:2:\d+ error .*\[webhooks\//m);
    expect(r.stdout).toMatch(/: 1 error\n$/);
  });
});
