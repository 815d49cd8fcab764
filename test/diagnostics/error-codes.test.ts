/**
 * The runtime error catalogue: the list in docs/cli.md is what the catalogue generates, every
 * CoursesyncError of src/ is made by it, and a code reads the same wherever it is raised.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS, failure, renderErrorList, spliceErrorList } from '../../src/diagnostics/error-codes/index.js';
import { CoursesyncError } from '../../src/diagnostics/errors.js';

const ROOT = resolve(import.meta.dirname, '../..');
// Commands being rewritten in another branch; they move to the catalogue there.
const NOT_YET = ['src/cli/validate.ts', 'src/cli/plan.ts', 'src/cli/apply.ts', 'src/sync/'];

const sources = (readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `src/${f.split('\\').join('/')}`);

describe('runtime error catalogue', () => {
  it('docs/cli.md lists exactly the catalogue (run `npm run build && npm run errors` when this fails)', () => {
    const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    expect(spliceErrorList(doc, renderErrorList())).toBe(doc);
    for (const code of Object.keys(ERRORS)) expect(doc).toContain(`\`${code}\``);
  });

  it('every CoursesyncError in src/ is made by the catalogue', () => {
    const inline = sources
      .filter((f) => !f.startsWith('src/diagnostics/error-codes/') && !NOT_YET.some((n) => f.startsWith(n)))
      .filter((f) => /new CoursesyncError\(/.test(readFileSync(join(ROOT, f), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(inline).toEqual([]);
  });

  it('a code has one wording: connection/no-token says the same first words for every cause', () => {
    const messages = (['unset', 'empty-file', 'multi-line-file', 'malformed'] as const).map((problem) => failure('connection/no-token', { problem, file: 'key.txt' }));
    for (const e of messages) {
      expect(e).toBeInstanceOf(CoursesyncError);
      expect(e.code).toBe('connection/no-token');
      expect(e.message).toMatch(/^no usable API token: /);
      expect(e.hint).toBe(messages[0]!.hint);
    }
  });

  it('every entry has a summary, and failure() fills code, message, hint and options', () => {
    for (const [code, e] of Object.entries(ERRORS)) expect(e.summary.length, code).toBeGreaterThan(10);
    const cause = new Error('EACCES');
    const e = failure('state/write-failed', { file: '.coursesync/state.json', reason: 'EACCES' }, { cause });
    expect(e).toMatchObject({ code: 'state/write-failed', message: 'cannot write .coursesync/state.json: EACCES', hint: 'check free disk space and permissions; the previous file is intact', exitCode: 1 });
    expect(e.cause).toBe(cause);
  });
});

describe('errors about many lessons stay short', () => {
  it('1,000 lessons missing one published image: one line per missing URL, three lessons each, five URLs at most', () => {
    const url = (i: number) => `https://cdn.example.com/course/figure.${String(i).padStart(16, '0')}.png`;
    const lessons = Array.from({ length: 1000 }, (_, i) => ({
      path: `01-program/${String(Math.floor(i / 100) + 1).padStart(2, '0')}-section/${i + 1}-lesson.md`,
      files: [{ path: `01-program/${String(Math.floor(i / 100) + 1).padStart(2, '0')}-section/img/figure.png`, url: url(i % 8), reason: 'HTTP 404' }],
    }));
    const e = failure('apply/assets-unpublished', { lessons, base: 'https://cdn.example.com/course/' });
    expect(e.message).toMatch(/^1000 lessons to send reference files that are not published; nothing was sent: /);
    expect(e.message).toContain(`${url(0)} (HTTP 404) for 01-program/01-section/1-lesson.md, 01-program/01-section/9-lesson.md, 01-program/01-section/17-lesson.md and 122 more lessons`);
    expect(e.message).toMatch(/and 3 more files$/);
    expect(e.message.length).toBeLessThan(1500);
    const one = failure('apply/assets-unpublished', { lessons: lessons.slice(0, 1), base: 'https://cdn.example.com/course/' });
    expect(one.message).toBe(
      `the lesson to send references files that are not published; nothing was sent: 01-program/01-section/1-lesson.md: a file it references is not published (01-program/01-section/img/figure.png at ${url(0)}: HTTP 404)`,
    );
  });
});
