/** Terminal helpers: tables on and off a TTY, stable JSON, colours, and confirmation off a TTY. */
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { colors, confirm, isInteractive, printJson, printRecord, printTable } from '../../src/cli/terminal.js';
import { collector } from './school-helpers.js';

const rows = [
  { id: 'mem_1', name: 'Ada\tLovelace' },
  { id: 'mem_10', name: 'Grace\nHopper' },
];
const columns = [
  { header: 'id', value: (r: (typeof rows)[number]) => r.id },
  { header: 'name', value: (r: (typeof rows)[number]) => r.name },
];
const savedTTY = { in: process.stdin.isTTY, noColor: process.env.NO_COLOR };
afterEach(() => {
  process.stdin.isTTY = savedTTY.in;
  if (savedTTY.noColor === undefined) delete process.env.NO_COLOR;
  else process.env.NO_COLOR = savedTTY.noColor;
});

describe('printTable', () => {
  it('off a TTY: tab-separated lines, no heading; tabs and newlines inside values become spaces', () => {
    const out = collector(false);
    printTable(rows, columns, out);
    expect(out.text).toBe('mem_1\tAda Lovelace\nmem_10\tGrace Hopper\n');
  });

  it('on a TTY: an upper-case heading and padded columns', () => {
    const out = collector(true);
    printTable(rows, columns, out);
    expect(stripVTControlCharacters(out.text)).toBe('ID      NAME\nmem_1   Ada Lovelace\nmem_10  Grace Hopper\n');
  });

  it('printRecord: field/value lines, non-strings as JSON', () => {
    const out = collector(false);
    printRecord({ id: 'x', n: 2, seen: null }, out);
    expect(out.text).toBe('id\tx\nn\t2\nseen\tnull\n');
  });
});

describe('printJson', () => {
  it('is 2-space JSON with a final newline', () => {
    const out = collector(false);
    printJson({ a: [1] }, out);
    expect(out.text).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});

describe('colors', () => {
  it('on only for a TTY without NO_COLOR', () => {
    delete process.env.NO_COLOR;
    expect(colors(collector(true)).isColorSupported).toBe(true);
    expect(colors(collector(false)).isColorSupported).toBe(false);
    process.env.NO_COLOR = '1';
    expect(colors(collector(true)).isColorSupported).toBe(false);
  });
});

describe('confirm', () => {
  it('with yes: true without asking', async () => {
    expect(await confirm('Delete it?', { yes: true })).toBe(true);
  });

  it('off a TTY without yes: refuses with cli/needs-yes and says to re-run with --yes', async () => {
    process.stdin.isTTY = false;
    expect(isInteractive()).toBe(false);
    await expect(confirm('Delete offer "Pro"?', {})).rejects.toMatchObject({
      code: 'cli/needs-yes',
      message: 'not run in a terminal, so nobody can confirm: Delete offer "Pro"',
      hint: 're-run the command with --yes to confirm without a prompt',
    });
  });
});
