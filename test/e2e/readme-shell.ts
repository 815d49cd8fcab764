/**
 * The README's walk-through as a test runs it: its `sh` blocks, read from README.md (so the
 * README and the test cannot drift), run one after another in one bash session, as an author
 * types them into one terminal (a `cd` or an `export` carries on to the next block).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const README = join(import.meta.dirname, '../../README.md');

/** The `sh` blocks of the README section titled `heading`, in order, as written. */
export async function readmeBlocks(heading: string): Promise<string[]> {
  const text = await readFile(README, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README.md has no section "${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * `block` with each placeholder replaced by the test's own value (the API key, the school's
 * address, the remote): each must be there, so a README edit that drops one fails the test.
 */
export function fill(block: string, values: Array<[placeholder: string, value: string]>): string {
  let out = block;
  for (const [from, to] of values) {
    if (!out.includes(from)) throw new Error(`the README block no longer holds "${from}":\n${block}`);
    out = out.replaceAll(from, to);
  }
  return out;
}

export interface BlockResult {
  stdout: string;
  stderr: string;
}

/**
 * One bash session in `cwd` with `env` (`set -eo pipefail`, as a careful author would). Each
 * `run` feeds a block, its output captured on its own (stdin is /dev/null, so no command can
 * read the next block); a failing command ends the session and rejects with its output.
 */
export function bashSession(cwd: string, env: NodeJS.ProcessEnv, outDir: string) {
  const child = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.write('set -eo pipefail\n');
  let stdout = '';
  let exited: number | null | undefined;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    wake();
  });
  child.on('exit', (code) => {
    exited = code;
    wake();
  });
  let count = 0;
  return {
    async run(block: string): Promise<BlockResult> {
      const n = ++count;
      const out = join(outDir, `block-${n}.out`);
      const err = join(outDir, `block-${n}.err`);
      const done = `__block_${n}_done__`;
      child.stdin.write(`{\n${block}\n} </dev/null >'${out}' 2>'${err}'\necho ${done}\n`);
      while (!stdout.includes(done) && exited === undefined) await new Promise<void>((r) => waiters.push(r));
      const result = { stdout: await readFile(out, 'utf8').catch(() => ''), stderr: await readFile(err, 'utf8').catch(() => '') };
      if (!stdout.includes(done)) throw new Error(`this README block failed (bash exited ${String(exited)}):\n${block}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
      return result;
    },
    close(): void {
      child.stdin.end();
    },
  };
}
