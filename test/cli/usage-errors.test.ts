/** Usage errors of the built CLI never print a secret typed on the command line or set in the environment. */
import { describe, expect, it } from 'vitest';
import { redactUsageError } from '../../src/cli/redact-usage-error.js';
import { runCli } from '../e2e/helpers.js';

const KEY = 'tok_TYPED_SECRET_41c9';

describe('usage errors', () => {
  it('an unknown --token=VALUE is named without its value, on every level of the command tree', async () => {
    for (const args of [['plan', `--token=${KEY}`], [`--token=${KEY}`], ['members', 'list', `--api-key=${KEY}`], ['webhooks', 'plan', `--tokn=${KEY}`]]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/unknown option '--[a-z-]+=…'/);
      expect(r.stdout + r.stderr).not.toContain(KEY);
    }
  });

  it('the key from COURSESYNC_TOKEN typed as a stray word is masked', async () => {
    const r = await runCli([KEY], { COURSESYNC_TOKEN: KEY });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command '…'");
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('keeps everything else of the message', () => {
    expect(redactUsageError("error: unknown option '--tokn'\n(Did you mean --token-file?)\n", {})).toBe("error: unknown option '--tokn'\n(Did you mean --token-file?)\n");
    expect(redactUsageError("error: unknown option '-x=1'", {})).toBe("error: unknown option '-x=…'");
  });
});
