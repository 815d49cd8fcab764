/** Repo paths (PURE): `/`-separated, relative to the repo root, which is ''. */

/** The folder of a path ('' for a file at the root). */
export const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** Folders above `dir`, nearest first, ending with the repo root ''. */
export function ancestors(dir: string): string[] {
  const list: string[] = [];
  let d = dir;
  while (d !== '') {
    d = dirOf(d);
    list.push(d);
  }
  return list;
}

/** Every folder holding one of `files`, at any depth, the repo root '' among them. */
export function foldersOf(files: Iterable<string>): Set<string> {
  const folders = new Set(['']);
  for (const file of files) for (let dir = dirOf(file); !folders.has(dir); dir = dirOf(dir)) folders.add(dir);
  return folders;
}

/** `dir` + a relative path, `.` and `..` resolved (a path leaving the repo keeps its `..`: no file has it). */
export function joinPath(dir: string, rel: string): string {
  const parts = dir === '' ? [] : dir.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

/** `a/./b/../c` → `a/c`; undefined when the path climbs above the repo root. */
export function normalizePath(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}
