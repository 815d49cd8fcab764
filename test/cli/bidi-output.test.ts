/**
 * Bidirectional controls ("Trojan Source": U+202E reverses how the rest of a line reads) are
 * escaped like C0/C1 controls in every output of the built CLI: text, Markdown (the PR comment)
 * and JSON plans, and diagnostics. JSON keeps the value exact. A lesson name may not hold one;
 * a body keeps them, as right-to-left lessons need them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../src/apply/apply-plan.js';
import { describeOutcome } from '../../src/apply/summarize-apply.js';
import { escapeControl, printableJson } from '../../src/diagnostics/diagnostic.js';
import { lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const RLO = '\u202e';
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const body = `\`\`\`js
const isAdmin = false; /* ${RLO}} if (isAdmin)\u2066 begin admins only */
\`\`\`

# Reading a diff

A reviewer reads the line above as a comment, the compiler does not.
In Hebrew: \u200fשלום\u200f, and a C1 control:\u0085here.
`;

function repo(name = 'Trojan source') {
  return writeRepo({
    'sec/program.yaml': 'id: prog_sec\nname: Secure code\n',
    'sec/01-review/section.yaml': 'id: sec_review\n',
    'sec/01-review/01-trojan.md': lesson(`name: "${name}"\nlesson_type: text`, body),
  });
}

describe('bidi controls in every output', () => {
  it('escapeControl writes C0, C1 and bidi controls as escapes, once', () => {
    expect(escapeControl(`a\nb\u001b[31m${RLO}c\u0085d\u2066e\u200ef\u2069`)).toBe('a\\nb\\u001b[31m\\u202ec\\u0085d\\u2066e\\u200ef\\u2069');
    const json = printableJson(JSON.stringify({ name: `x${RLO}y\u0085` }));
    expect(json).toBe('{"name":"x\\u202ey\\u0085"}');
    expect(JSON.parse(json)).toEqual({ name: `x${RLO}y\u0085` });
  });

  it("an apply line quoting the school's error escapes it", () => {
    const outcome = { status: 'failed', ms: 12, step: { action: 'update', key: 'trojan', path: 'sec/01-review/01-trojan.md' }, error: new Error(`bad name${RLO}\n::error::x`) } as unknown as CallOutcome;
    expect(describeOutcome(outcome)).toBe('✗ update trojan (sec/01-review/01-trojan.md) failed after 12 ms: bad name\\u202e\\n::error::x');
  });

  it.each([['text'], ['markdown'], ['json']])('plan --format %s prints no raw control, and JSON keeps the body exact', async (format) => {
    const dir = await repo();
    const r = await runCli(['plan', dir, '--format', format]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/isAdmin/);
    expect(r.stdout).not.toMatch(UNSAFE);
    expect(r.stdout).toContain('\\u202e');
    if (format === 'json') {
      const plan = JSON.parse(r.stdout) as { changes: Array<{ fields: Array<{ field: string; after: unknown }> }> };
      const sent = plan.changes[0]!.fields.find((f) => f.field === 'body')!.after as string;
      expect(sent).toContain(`/* ${RLO}} if (isAdmin)\u2066 begin`);
    }
  });

  it('a lesson name holding a bidi control is refused, and the diagnostic prints it escaped', async () => {
    const dir = await repo(`invoice${RLO}fdp.exe`);
    const r = await runCli(['validate', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sec/01-review/01-trojan.md:2:7 error "name" must not hold a bidirectional control character (U+202A to U+202E, U+2066 to U+2069): it would reorder how the name reads [lesson/invalid-field]');
    const json = await runCli(['validate', dir, '--format', 'json']);
    expect(json.stdout + json.stderr + r.stdout + r.stderr).not.toMatch(UNSAFE);
  });

  it('a diagnostic quoting a bidi control (an unknown key) escapes it, in text and in GitHub annotations', async () => {
    const dir = await writeRepo({
      'sec/program.yaml': 'id: prog_sec\n',
      'sec/01-review/section.yaml': 'id: sec_review\n',
      'sec/01-review/01-trojan.md': lesson(`name: Trojan\nlesson_type: text\n"is_pub${RLO}lished": true`, 'Text.'),
    });
    for (const env of [{}, { GITHUB_ACTIONS: 'true' }] as Array<Record<string, string>>) {
      const r = await runCli(['validate', dir], env);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('unknown key "is_pub\\u202elished"');
      expect(r.stdout + r.stderr).not.toMatch(UNSAFE);
    }
  });
});
