/** The git commit a repo is at, recorded with what an environment applied (docs/environments.md#promotion). */
import { execFile } from 'node:child_process';

/** `git rev-parse HEAD` in `dir`; null when it is not a git repo or git is missing. */
export function headCommit(dir: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: dir, timeout: 10_000 }, (error, stdout) => {
      const commit = stdout.trim();
      resolve(error || !/^[0-9a-f]{40,64}$/.test(commit) ? null : commit);
    });
  });
}
