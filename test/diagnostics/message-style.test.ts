/**
 * Every message, hint and summary of the two catalogues (src/diagnostics/error-codes/ and
 * src/diagnostics/repo-codes.ts) follows docs/message-style.md, checked mechanically: each runtime
 * error is rendered with sample facts (a stand-in value for every entry, and real values for
 * the entries whose wording branches on them) and each text must start lower-case unless its
 * first word is a name, path, flag or code, must not end with a period, must not carry an
 * "Error:" prefix, and must be one line.
 */
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/compile/codes.js';
import { ERRORS, type ErrorArgs, type ErrorCode } from '../../src/diagnostics/error-codes/index.js';
import type { ErrorEntry } from '../../src/diagnostics/error-codes/entry.js';

/** What breaks the style in one text, or undefined when it follows it. */
export function styleProblem(text: string): string | undefined {
  if (text.trim() === '') return 'is empty';
  if (text !== text.trim()) return 'has leading or trailing space';
  if (text.includes('\n')) return 'spans lines';
  if (/^(error|warning|fatal)\b\s*:/i.test(text)) return 'starts with a severity prefix';
  if (/\.$/.test(text) && !/\.\.\.$|…$/.test(text)) return 'ends with a period';
  const first = /^\S+/.exec(text)![0];
  // A sentence word (Give, The, Cannot) is capitalised only by its place; a name keeps its case.
  if (/^[A-Z][a-z]+[,;:]?$/.test(first) && !NAMES.has(first.replace(/[,;:]$/, ''))) return `starts upper-case ("${first}") and is not a name, path or code`;
  return undefined;
}

/** Capitalised words that are names, not sentence starts. */
const NAMES = new Set(['Chromium', 'GitHub', 'Markdown']);

/**
 * A stand-in for any fact: text, number, list or object as the wording uses it. Interpolated
 * it reads `sample`, lower-case, as a name or path an entry starts with would.
 */
function standIn(): unknown {
  const value: unknown = new Proxy(function () {}, {
    get(_target, prop) {
      if (prop === Symbol.toPrimitive) return (hint: string) => (hint === 'number' ? 2 : 'sample');
      if (prop === Symbol.iterator) return function* () {
        yield value;
        yield value;
      };
      if (prop === 'then') return undefined;
      if (prop === 'length') return 2;
      if (prop === 'toString') return () => 'sample';
      if (prop === 'map') return (f: (v: unknown, i: number) => unknown) => [f(value, 0), f(value, 1)];
      if (prop === 'slice' || prop === 'filter') return () => [value, value];
      if (prop === 'join') return (sep = ',') => `sample${sep}sample`;
      if (prop === 'replace') return (...a: [RegExp, string]) => 'sample'.replace(...a);
      return value;
    },
  });
  return new Proxy({}, { get: (_t, prop) => (prop === 'then' ? undefined : value) });
}

/** Real facts for the entries whose wording branches on them, one case per branch. */
const BRANCHES: { [C in ErrorCode]?: Array<ErrorArgs<C>> } = {
  'cli/needs-yes': [{ question: 'Apply 2 changes?' }, { question: 'Apply 2 changes?', plan: true }],
  'sections/not-a-program': (['not-a-folder', 'no-program-yaml', 'invalid'] as const).map((problem) => ({ arg: 'intro', problem })),
  'sections/scaffold-exists': [{ clashes: ['01-start/section.yaml'] }],
  'webhooks/apply-failed': [
    { place: 'webhooks.yaml:3', reason: 'the school answered 422.', done: 'none' },
    { place: 'webhooks.yaml:3', reason: 'the school answered 422', done: 'none', causeHint: 'check the URL.' },
  ],
  'emulator/bad-seed': (['yaml', 'schema', 'reference'] as const).map((kind) => ({ place: 'seed.yaml:2:1', problem: 'unexpected end', kind })),
  'connection/invalid-url': (['not-a-url', 'scheme', 'credentials', 'query'] as const).map((problem) => ({ source: '--base-url', problem, value: 'ftp:' })),
  'connection/no-token': (['unset', 'empty-file', 'multi-line-file', 'malformed'] as const).map((problem) => ({ problem, file: 'key.txt' })),
  'connection/not-found': [{ answer: '404 not found' }, { answer: '404 not found', subject: 'lesson les_1' }],
  'school/api-error': [401, 403, 404, 409, 429, 503].map((status) => ({ endpoint: 'PATCH /lessons/les_1', status, serverError: 'refused' })),
  'school/unreachable': [{ endpoint: 'GET /sections', reason: 'connection refused' }],
  'school/outcome-unknown': [
    { endpoint: 'POST /lessons', reason: 'timeout' },
    { endpoint: 'POST /lessons', reason: 'timeout', lesson: { name: 'Loops', section_id: 'sec_1' } },
  ],
  'school/operation-failed': [{ operationId: 'op_1', operation: 'duplicate', error: null }],
  'state/unreadable': [{ file: 'state.json', reason: 'EACCES' }, { file: 'state.json', reason: 'EACCES', blocked: true }],
  'state/folder-unwritable': (['not-a-folder', 'read-only', 'permission', 'other'] as const).map((cause) => ({ folder: '.coursesync', cause, detail: 'EIO' })),
  'state/locked': [{ file: 'state.lock' }, { file: 'state.lock', holder: { pid: 12, host: 'ci', started_at: '2026-01-01T00:00:00Z' } }],
  'plan/invalid': [{ problem: 'no steps' }, { file: 'plan.json', problem: 'no steps' }],
  'plan/section-not-found': [{ path: 'intro/01-start', programId: 'prog_1', name: 'Start' }, { path: 'intro/01-start', programId: 'prog_1', name: 'Start', sections: 'Begin, End' }],
  'apply/assets-unpublished': [
    { lessons: [{ path: 'a.md', files: [{ path: 'img/a.png', url: 'https://cdn/a.png', reason: '404' }] }], base: 'https://cdn/' },
    { lessons: [{ path: 'a.md', files: [{ path: 'img/a.png', url: 'https://cdn/a.png', reason: '404' }] }, { path: 'b.md', files: [] }], base: 'https://cdn/' },
  ],
  'repo/nested': [
    { inner: 'a/b', outer: 'a', marker: 'coursesync.yaml' },
    { inner: 'a/b', outer: 'a', marker: 'coursesync.yaml', own: '.coursesync/state.json' },
  ],
  'plan/needs-token': [{ why: 'a section is given by name', byName: [] }, { why: 'a section is given by name', byName: ['intro/01-start'] }],
  'state/unknown-key': [{ key: 'welcom' }, { key: 'welcom', near: 'welcome' }],
  'clone/not-a-section': [{ arg: 'x', dir: 'course' }, { arg: 'x', dir: 'course', idAllowed: true }],
  'clone/journal-invalid': [{ file: 'dups.json' }, { file: 'dups.json', reason: 'EACCES' }],
  'import/into-or-key': [{ both: true }, { both: false }],
  'duplicate/no-source': [{ arg: 'x.md', dir: 'course', notAFile: true }, { arg: 'x.md', dir: 'course', notAFile: false }],
  'duplicate/key-conflict': [{ what: 'lesson les_1', reason: 'conflict.', program: true }, { what: 'lesson les_1', reason: 'conflict', program: false }],
  'duplicate/folder-exists': [{ into: 'copy' }, { into: 'copy', programId: 'prog_2', clashes: ['program.yaml'] }],
};

/** Message, hint and summary of `code` for every sample of its facts. */
function rendered(code: ErrorCode): Array<{ what: string; text: string }> {
  const e = ERRORS[code] as ErrorEntry<unknown>;
  const samples: unknown[] = [standIn(), ...((BRANCHES as Record<string, unknown[] | undefined>)[code] ?? [])];
  const out = [{ what: 'summary', text: e.summary }];
  for (const args of samples) {
    // String(): a wording that passes a fact through whole returns the stand-in itself.
    out.push({ what: 'message', text: String(e.message(args)) });
    const hint = e.hint(args);
    if (hint !== undefined) out.push({ what: 'hint', text: String(hint) });
  }
  return out;
}

describe('message style (docs/message-style.md)', () => {
  it('the check catches each broken rule', () => {
    expect(styleProblem('cannot read state.json: EACCES')).toBeUndefined();
    expect(styleProblem('--port 99999 is not a port number')).toBeUndefined();
    expect(styleProblem('COURSESYNC_TOKEN is not set')).toBeUndefined();
    expect(styleProblem('POST /lessons answered 500')).toBeUndefined();
    expect(styleProblem('Cannot read state.json')).toMatch(/upper-case/);
    expect(styleProblem('Give exactly one of --id or --email')).toMatch(/upper-case/);
    expect(styleProblem('cannot read state.json.')).toMatch(/period/);
    expect(styleProblem('Error: cannot read state.json')).toMatch(/prefix/);
    expect(styleProblem('error: cannot read state.json')).toMatch(/prefix/);
    expect(styleProblem('')).toMatch(/empty/);
    expect(styleProblem('two\nlines')).toMatch(/lines/);
  });

  it('the stand-in renders every entry, and reads as a lower-case name', () => {
    const e = ERRORS['apply/no-target'];
    expect(e.message(standIn() as ErrorArgs<'apply/no-target'>)).toBe('sample does not exist');
    expect(ERRORS['sections/scaffold-exists'].message(standIn() as ErrorArgs<'sections/scaffold-exists'>)).toBe(
      '--scaffold would overwrite 2 existing files: sample, sample; nothing was written',
    );
  });

  it('every runtime error: message, hint and summary', () => {
    const problems: string[] = [];
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      for (const { what, text } of rendered(code)) {
        const problem = styleProblem(text);
        if (problem) problems.push(`${code} ${what} ${problem}: ${text}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every repo diagnostic: its hint', () => {
    const problems = Object.entries(CODES).flatMap(([code, { hint }]) => {
      const problem = styleProblem(hint);
      return problem ? [`${code} hint ${problem}: ${hint}`] : [];
    });
    expect(problems).toEqual([]);
  });
});
