/** `coursesync custom-code pull` in-process against the real emulator. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_WRITE_ENDPOINT, runCustomCodePull } from '../../src/cli/custom-code.js';
import { useSchool } from './school-helpers.js';

const school = useSchool();
const dirs: string[] = [];
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'coursesync-cc-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('custom-code pull', () => {
  it('writes head.html and body.html byte for byte, into a new --out folder, and says there is no write endpoint', async () => {
    const out = join(await tempDir(), 'school', 'custom');
    const io = school.io();
    expect(await runCustomCodePull({ out }, io)).toBe(0);
    expect(await readFile(join(out, 'head.html'), 'utf8')).toBe('<meta name="school" content="demo">');
    expect(await readFile(join(out, 'body.html'), 'utf8')).toBe('<div id="coursesync-demo-footer"></div>');
    expect(io.stdout.text).toBe(`wrote ${join(out, 'head.html')} (35 bytes)\nwrote ${join(out, 'body.html')} (39 bytes)\n`);
    expect(io.stderr.text).toBe(NO_WRITE_ENDPOINT + '\n');
    expect(NO_WRITE_ENDPOINT).toMatch(/no endpoint that writes custom code/);
  });

  it('overwrites an older copy and says which files did not change', async () => {
    const out = await tempDir();
    await writeFile(join(out, 'head.html'), 'old');
    await writeFile(join(out, 'body.html'), '<div id="coursesync-demo-footer"></div>');
    const io = school.io();
    await runCustomCodePull({ out, json: true }, io);
    const report = JSON.parse(io.stdout.text);
    expect(report.files.map((f: any) => [f.path, f.changed])).toEqual([
      [join(out, 'head.html'), true],
      [join(out, 'body.html'), false],
    ]);
    expect(report.note).toBe(NO_WRITE_ENDPOINT);
    expect(await readFile(join(out, 'head.html'), 'utf8')).toBe('<meta name="school" content="demo">');
  });

  it('an --out that is a file: a clear error, not a stack trace', async () => {
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, 'x');
    const e = await school.fails(runCustomCodePull({ out: file }, school.io()));
    expect(e.code).toBe('custom-code/write-failed');
    expect(e.message).toMatch(/^cannot write the custom code to .*a-file \((EEXIST|ENOTDIR)\)$/);
  });

  it('a bad token: 401 naming COURSESYNC_TOKEN, nothing written; no token in any output', async () => {
    const out = await tempDir();
    const e = await school.fails(runCustomCodePull({ out }, school.io({ token: 'nope' })));
    expect(e.hint).toMatch(/COURSESYNC_TOKEN/);
    await expect(readFile(join(out, 'head.html'))).rejects.toThrow();
    school.assertNoTokenLeaked();
  });
});
