/**
 * Helpers for end-to-end tests: the built CLI as users run it (`dist/bin/coursesync.js`, the
 * bundle `npm test` builds) run as a child process against an in-process emulator, course repos
 * written into temp folders.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** The command as the package installs it: the bundle (scripts/bundle-cli.mjs). */
export const CLI = join(import.meta.dirname, '../../dist/bin/coursesync.js');
/** The same command as tsc built it, a module per file: for the tests that record which modules a run loads. */
export const MODULE_CLI = join(import.meta.dirname, '../../dist/cli/index.js');
export const EXAMPLES = join(import.meta.dirname, '../../examples');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `coursesync …` off a terminal, with a clean environment plus `env` (`cli`: the bundle, or MODULE_CLI). */
export function runCli(args: string[], env: Record<string, string> = {}, cwd?: string, cli = CLI): Promise<CliResult> {
  const base = { ...process.env };
  for (const k of ['COURSESYNC_TOKEN', 'COURSESYNC_BASE_URL', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'NO_COLOR', 'FORCE_COLOR']) delete base[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...base, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const dirs: string[] = [];

/** A temp copy of examples/ (without any local state). */
export async function copyExamples(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-e2e-'));
  dirs.push(dir);
  await cp(EXAMPLES, dir, { recursive: true, filter: (src) => basename(src) !== '.coursesync' });
  return dir;
}

/** A temp course repo made of `files` (path → text). */
export async function writeRepo(files: Record<string, string>, dir?: string): Promise<string> {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'coursesync-e2e-')));
  if (!dir) dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

export async function removeRepos(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** A lesson file: front-matter (YAML lines) and a body. */
export function lesson(frontMatter: string, body = 'Some text.'): string {
  return `---\n${frontMatter.trim()}\n---\n${body}\n`;
}
