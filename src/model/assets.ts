/** Content-addressed names of published repo files (PURE): one rule for compile and `coursesync assets`. */

/** Hex digits of the sha256 kept in the name: enough that two versions of a file never share one. */
const DIGEST_CHARS = 16;

/** `img/clone repo.png` with digest abc… → `clone-repo.abc….png` (URL-safe, flat). */
export function assetFileName(path: string, digest: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const ext = dot > 0 ? base.slice(dot + 1) : '';
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'file';
  return `${safe(stem)}.${digest.slice(0, DIGEST_CHARS)}${ext ? `.${safe(ext).toLowerCase()}` : ''}`;
}

/**
 * The largest file a lesson may publish. Digests and copies are streamed, so the bound is for
 * the static host and the learner's download, not for memory: large media belongs on a video
 * or file host, linked by URL.
 */
export const MAX_ASSET_BYTES = 100 * 1024 * 1024;

/**
 * The part of a repo path no lesson may publish (PURE): a hidden file or folder (`.git`,
 * `.env`, `.coursesync`) or `node_modules`. The repo walk never enters them; a symlink is how a
 * path leads there, so the real path of every published file is checked with this.
 */
export function privatePart(realPath: string): string | undefined {
  return realPath.split('/').find((part) => part.startsWith('.') || part === 'node_modules');
}

/**
 * Why coursesync has no file at `path` when privatePart names a part of it, for the errors of a
 * reference to it: undefined for any other path. The walk never enters such a folder, so the
 * file is not missing: it is out of reach on purpose.
 */
export function privateReason(path: string): string | undefined {
  const part = privatePart(path);
  if (part === undefined) return undefined;
  const where = part === 'node_modules' ? 'in node_modules' : path === part || path.endsWith(`/${part}`) ? 'hidden (its name starts with a dot)' : `in a hidden folder (${part}/)`;
  return `${path} is ${where}: coursesync never reads nor publishes such files, which may be secrets (.env, .git)`;
}

/** Why a path in the repo cannot be published, as read (source/) and completed by `ignore:` (compile/). */
export type RefusedFile =
  /** A symlink (to a file or a folder) whose real path is private or ignored. */
  | { kind: 'link'; real: string; why: 'private' | 'ignored' }
  | { kind: 'too-large'; bytes: number };
