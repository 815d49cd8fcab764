import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The package entry as a user imports it (package.json "exports" → dist/index.js, built by npm test).
const lib = await import('coursesync');

describe("the library entry ('coursesync')", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('runs the whole pipeline: emulator, plan, apply, an empty second plan, and the typed client', async () => {
    const emulator = await lib.startEmulator({ port: 0 });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'coursesync-lib-'));
      dirs.push(dir);
      cpSync('examples', dir, { recursive: true });
      const env = { ...process.env, COURSESYNC_TOKEN: 'demo-token', COURSESYNC_BASE_URL: emulator.url };

      const loaded = await lib.loadCourse(dir);
      expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const first = await lib.buildPlan(dir, { env });
      expect(first.plan.summary.create).toBe(loaded.counts.lessons);

      await lib.applyCourse(dir, { env });
      const second = await lib.buildPlan(dir, { env });
      expect(lib.hasChanges(second.plan)).toBe(false);

      const client = lib.createSchoolClient({ baseUrl: emulator.url, token: 'demo-token' });
      const names: string[] = [];
      for await (const s of client.sections.list({ product_id: 'prog_intro' })) names.push(s.name);
      expect(names).toEqual(['Getting started', 'Types', 'Tooling']);
    } finally {
      await emulator.close();
    }
  });
});
