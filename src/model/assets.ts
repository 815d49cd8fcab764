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
