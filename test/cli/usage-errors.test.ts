/** Usage errors of the built CLI never print a secret typed on the command line or set in the environment. */
import { describe, expect, it } from 'vitest';
import { redactUsageError } from '../../src/cli/redact-usage-error.js';
import { runCli } from '../e2e/helpers.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

const KEY = 'tok_TYPED_SECRET_41c9';

describe('usage errors', () => {
  it('an unknown --token=VALUE is named without its value, on every level of the command tree', async () => {
    for (const args of [['plan', `--token=${KEY}`], [`--token=${KEY}`], ['members', 'list', `--api-key=${KEY}`], ['webhooks', 'plan', `--tokn=${KEY}`]]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(ExitCode.Usage);
      expect(r.stderr).toMatch(/unknown option '--[a-z-]+=…'/);
      expect(r.stdout + r.stderr).not.toContain(KEY);
    }
  });

  it('the key from COURSESYNC_TOKEN typed as a stray word is masked', async () => {
    const r = await runCli([KEY], { COURSESYNC_TOKEN: KEY });
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toContain("unknown command '…'");
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('keeps everything else of the message', () => {
    expect(redactUsageError("error: unknown option '--tokn'\n(Did you mean --token-file?)\n", {})).toBe("error: unknown option '--tokn'\n(Did you mean --token-file?)\n");
    expect(redactUsageError("error: unknown option '-x=1'", {})).toBe("error: unknown option '-x=…'");
  });
});

describe('exit codes (docs/cli.md#exit-codes)', () => {
  it('64 (EX_USAGE) for every usage error, never 2 (changes present): an unknown option or command, a missing argument, a malformed value, conflicting options; 0 for --help and --version', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['plan', '--no-such-flag'], /unknown option '--no-such-flag'/],
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['state', 'show'], /missing required argument 'key'/],
      [['apply', '--concurrency', 'many'], /--concurrency must be a whole number from 1 to 64, not "many"\n {2}hint: e\.g\. --concurrency 2/],
      [['validate', '--format', 'yaml'], /unknown format "yaml"\n {2}hint: use --format text or json/],
      [['badges', 'award', '--email', 'ada@example.com'], /exactly one of --badge-id or --badge-name is needed\n/],
      [['plan', '--skip-html-only', '--html-only'], /--skip-html-only and --html-only cannot be combined/],
      [['plan', '--json', '--format', 'markdown'], /--json and --format markdown cannot be combined\n {2}hint: give one: --json \(the same as --format json\), or --format markdown/],
      [['webhooks', 'plan', '--format', 'text', '--json'], /--json and --format text cannot be combined/],
      [['validate', '--json', '--format', 'text'], /--json and --format text cannot be combined/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    results.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(' ')).toBe(64);
      expect(r.stderr).toMatch(cases[i]![1]);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
    expect((await runCli(['plan', '--help'])).code).toBe(0);
    expect((await runCli(['--version'])).code).toBe(0);
  });
});
