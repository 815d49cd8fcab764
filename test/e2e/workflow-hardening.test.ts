/**
 * The shipped workflows (examples/ci/github/, what `coursesync init` copies) are hardened: every
 * action pinned by its full commit with the tag as a comment, checkouts that keep no
 * credentials, a token only in the steps that need one (the school's key in apply; the job's
 * token only where the state is fetched and pushed, or the plan comment posted), and a
 * timeout on every job. What the steps do is run by the other workflow tests.
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { 'timeout-minutes'?: number; steps: Step[] }>;
}

// The single-school workflows and those init writes for a repo with environments.
const DIRS = ['github', 'github-environments'];
const root = new URL('../../examples/ci/', import.meta.url);
const files = (await Promise.all(DIRS.map(async (d) => (await readdir(new URL(`${d}/`, root))).filter((f) => f.endsWith('.yml')).map((f) => `${d}/${f}`)))).flat().sort();
const text = (file: string) => readFile(new URL(file, root), 'utf8');

/** Which steps may hold which secret: `${{ secrets.X }}` or `${{ github.token }}`, by step name. */
const TOKEN_STEPS: Record<string, RegExp> = {
  'Check the state is the newest': /^\$\{\{ github\.token \}\}$/,
  'Commit the state file': /^\$\{\{ github\.token \}\}$/,
  'Post the plan as one sticky comment': /^\$\{\{ github\.token \}\}$/,
  Apply: /^\$\{\{ secrets\.COURSESYNC_TOKEN(_[A-Z]+)? \}\}$/,
};

describe.each(files)('%s is hardened', (file) => {
  it('every action is pinned by a full commit, with its tag in a comment', async () => {
    const lines = (await text(file)).split('\n').filter((l) => /^\s*(- )?uses:/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+(\.\d+)*$/);
  });

  it('every job has a timeout; every checkout keeps no credentials', async () => {
    const doc = parse(await text(file)) as Workflow;
    for (const [name, job] of Object.entries(doc.jobs)) {
      expect(job['timeout-minutes'], name).toBeGreaterThan(0);
      for (const step of job.steps.filter((s) => s.uses?.startsWith('actions/checkout@'))) expect(step.with?.['persist-credentials'], name).toBe(false);
    }
  });

  it('a token only in the steps that need it, and never written to git config', async () => {
    const source = await text(file);
    const doc = parse(source) as Workflow;
    for (const job of Object.values(doc.jobs)) {
      for (const step of job.steps) {
        for (const [key, value] of Object.entries(step.env ?? {})) {
          if (!/secrets\.|github\.token/.test(value)) continue;
          expect(TOKEN_STEPS[step.name ?? ''], `${step.name}: ${key}`).toBeDefined();
          expect(value).toMatch(TOKEN_STEPS[step.name!]!);
        }
        expect(JSON.stringify(step.with ?? {})).not.toMatch(/secrets\.|github\.token/);
        // A push or fetch of the state goes through `authed` (the token for that command only).
        expect(step.run ?? '').not.toMatch(/\bgit (push|fetch)\b/);
      }
    }
    expect(source).not.toMatch(/git config [^\n]*(extraheader|credential|url\.)/);
  });
});
