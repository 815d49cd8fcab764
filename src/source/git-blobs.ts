/**
 * Old versions of lesson files from the repo's git history (I/O): one `git cat-file --batch`
 * process reads every blob a plan names, so a plan can show the Markdown source as last
 * applied. Anything that stops it (no git, not a repository) is a reason, never an error: the
 * plan then falls back to a field-level summary.
 */
import { spawn } from 'node:child_process';

/** What was read: blob id → its bytes (ids git does not have are absent), or why nothing could be. */
export type GitBlobs = { ok: true; blobs: Map<string, Buffer> } | { ok: false; reason: string };

const BLOB_ID = /^[0-9a-f]{40}$/;

/**
 * Read the blobs `ids` from the git repository that holds `dir`. Ids that are not 40-hex blob
 * ids are skipped (never passed to git); a blob missing from this clone (a shallow clone, a
 * commit never fetched) is simply absent from the result.
 */
export async function readGitBlobs(dir: string, ids: readonly string[]): Promise<GitBlobs> {
  const wanted = [...new Set(ids.filter((id) => BLOB_ID.test(id)))];
  if (wanted.length === 0) return { ok: true, blobs: new Map() };
  const run = await catFileBatch(dir, wanted.map((id) => id + '\n').join(''));
  if (!run.ok) return run;
  return { ok: true, blobs: parseBatch(run.stdout) };
}

async function catFileBatch(dir: string, input: string): Promise<{ ok: true; stdout: Buffer } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: dir,
      // Plain messages, and never a prompt or a pager.
      env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.on('error', (e: NodeJS.ErrnoException) => {
      resolve({ ok: false, reason: e.code === 'ENOENT' ? 'git is not installed here' : `git could not be run (${e.message})` });
    });
    child.on('close', (code) => {
      if (code === 0) return resolve({ ok: true, stdout: Buffer.concat(out) });
      const notRepo = /not a git repository/i.test(err);
      resolve({ ok: false, reason: notRepo ? 'the course folder is not in a git repository' : `git cat-file failed: ${firstLine(err) || `exit code ${code}`}` });
    });
    // git may exit before reading everything (not a repository): ignore the broken pipe.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

const firstLine = (s: string) => s.trim().split('\n')[0]!.trim();

/** `<id> blob <size>\n<bytes>\n` per object found, `<id> missing\n` per one not found. */
function parseBatch(stdout: Buffer): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  let at = 0;
  while (at < stdout.length) {
    const eol = stdout.indexOf(0x0a, at);
    if (eol < 0) break;
    const [id, type, size] = stdout.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    if (size === undefined || !/^\d+$/.test(size)) continue; // "<id> missing" or "ambiguous"
    const end = at + Number(size);
    if (type === 'blob' && id) blobs.set(id, stdout.subarray(at, end));
    at = end + 1;
  }
  return blobs;
}
