/**
 * The built CLI where another user can run it. Root reads and writes through file modes, so
 * the tests of "this user may not read/write" run the CLI as `nobody` when they run as root;
 * but the checkout may sit in a folder only its owner can enter (`mktemp -d` makes it 0700, as a
 * fresh CI clone does). So the CLI, its dependencies and package.json are linked (hard links;
 * copied across file systems) into a folder everyone may enter, once per test file.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../e2e/helpers.js';

const CHECKOUT = join(CLI, '../../..');

export interface SharedCli {
  /** The command (dist/bin/coursesync.js) of the shared copy. */
  cli: string;
  remove(): Promise<void>;
}

export async function shareCli(): Promise<SharedCli> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-cli-'));
  await chmod(dir, 0o755);
  for (const part of ['dist', 'node_modules', 'package.json']) {
    const from = join(CHECKOUT, part);
    try {
      execFileSync('cp', ['-al', from, dir], { stdio: 'ignore' });
    } catch {
      execFileSync('cp', ['-a', from, dir], { stdio: 'ignore' });
    }
  }
  return { cli: join(dir, 'dist/bin/coursesync.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}
