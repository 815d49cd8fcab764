/**
 * Resolve the local references of a compiled lesson against the whole repo (PURE), the way a
 * compiler resolves imports: a file must exist inside the repo, a `#fragment` must name a
 * heading or anchor of its lesson. Images and files become content-addressed URLs under
 * `assets.base_url`; links to other lesson files become lesson-link markers that the planner
 * fills with the school's lesson URL (plan/lesson-links.ts). Every problem is a diagnostic at
 * the reference's place.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CourseConfig } from '../model/config.js';
import type { LessonAsset, LessonFields, LinkPlace } from '../model/desired.js';
import { assetFileName, MAX_ASSET_BYTES, privateReason, type RefusedFile } from '../model/assets.js';
import { lessonLinkMarker } from '../model/lesson-links.js';
import { diag } from './codes.js';
import type { PlacedRef } from './compile-lesson.js';
import { escapeAttribute, REF_MARKER } from './rendered-html.js';
import { dirOf, normalizePath } from './repo-paths.js';
import { suggest } from './suggest.js';

/** Paths to values, as resolving asks them: a Map, or a view that answers on demand (resolve-lessons.ts). */
export interface PathLookup<V> {
  get(path: string): V | undefined;
  has(path: string): boolean;
  keys(): Iterable<string>;
}

/** What a reference can point at. */
export interface RepoIndex {
  /** Every file of the repo that is not a lesson (images, PDFs, READMEs…): path → sha256. */
  files: PathLookup<string>;
  /**
   * Every lesson file: path → its key and its anchors (undefined when its body did not render:
   * then unknown, and a `#fragment` to it is not judged).
   */
  lessons: PathLookup<{ key: string; anchors: ReadonlySet<string> | undefined }>;
  config: CourseConfig;
  /** Whether a file the course reads lies under a path ('' is the repo's root). */
  isFolder(path: string): boolean;
  /** What coursesync.yaml `ignore:` leaves out at a path of the repo: a file, a folder (one holding such files), or nothing. */
  ignored?: (path: string) => 'file' | 'folder' | undefined;
  /** Paths no lesson may publish (links into private or ignored paths, files too large): a reference to one, or under one, is refused. */
  refused?: ReadonlyMap<string, RefusedFile>;
  /** The program folder of a lesson and its `site_url:`, when program.yaml gives one. */
  siteOf?: (path: string) => { dir: string; url: string } | undefined;
  /** The repo path a site address (a link's absolute path) names in the lesson at `path`: its program's `site_paths:`. */
  sitePath?: (path: string, address: string) => string | undefined;
  /** Why a Markdown file of the repo is not a lesson (stray, not in SUMMARY.md, outside every program). */
  notLesson?: (path: string) => string;
}

export interface ResolvedLesson {
  fields: LessonFields;
  /** Files the lesson shows or links to, once each, in order. */
  assets: LessonAsset[];
  /** Keys of the lessons it links to, once each. */
  links: string[];
  /** Repo paths of every file and lesson it references, sorted: what its digest depends on. */
  deps: string[];
  /** Each lesson it links to (by path) and where the links are written, in order: what links-to-drafts.ts checks. */
  lessonLinks?: Map<string, LinkPlace[]>;
  /**
   * The targets it links at their pages in the repo (`repo_url:`: a folder, Markdown that is not
   * a lesson, a path `ignore:` leaves out), sorted. Such a link turns into a lesson link once the
   * folder gains a README lesson or the file becomes one: its digest covers what decides that
   * (pageFacts), not the target's bytes.
   */
  pages?: string[];
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A local reference's parts: the repo path it names (undefined above the root; '' for the lesson itself) and its #fragment. */
export interface RefTarget {
  rawPath: string;
  target: string | undefined;
  fragment: string | undefined;
  /** The fragment as written (percent-escapes kept): an id may hold them (GFM's footnote ids do, for a label such as †). */
  rawFragment?: string;
  /** Whether the program's `site_paths:` gave the target (the link is an address on the course's site). */
  bySite?: true;
}

/**
 * Where `url`, written in the file at `path`, points in the repo (PURE). An absolute path is
 * from the repo's root, unless `sitePath` names what the course's site serves at that address.
 */
export function refTarget(path: string, url: string, sitePath?: (address: string) => string | undefined): RefTarget {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const rawFragment = hash === -1 ? undefined : url.slice(hash + 1);
  const fragment = rawFragment === undefined ? undefined : decode(rawFragment);
  const query = beforeHash.indexOf('?');
  const rawPath = query === -1 ? beforeHash : beforeHash.slice(0, query);
  const parts = { rawPath, fragment, ...(rawFragment !== fragment && { rawFragment }) };
  if (rawPath === '') return { ...parts, target: '' };
  const decoded = decode(rawPath);
  const bySite = decoded.startsWith('/') ? sitePath?.(rawPath) : undefined;
  if (bySite !== undefined) return { ...parts, target: bySite, bySite: true };
  return { ...parts, target: normalizePath(decoded.startsWith('/') ? decoded : `${dirOf(path)}/${decoded}`) };
}

/**
 * The files a link to `target` may show, in order: the file itself, a folder's README.md or
 * index.md (as on GitHub and in static-site generators), and the page's Markdown file: for
 * `x.html` the `x.md` beside it (mdBook's rule: the book's pages are its Markdown files
 * rendered), for `x` with no extension `x.md` (GitHub Pages serves `x.md` rendered at `x`).
 */
export function lessonCandidates(target: string): string[] {
  const inFolder = (name: string) => (target === '' ? name : `${target}/${name}`);
  const list = [target, inFolder('README.md'), inFolder('index.md')];
  const page = pageSource(target);
  if (page !== undefined) list.push(page);
  return list;
}

/** The Markdown file a page address stands for: `x.md` for `x.html` and for `x` with no extension; undefined for any other. */
function pageSource(target: string): string | undefined {
  if (/\.html?$/i.test(target)) return target.replace(/\.html?$/i, '.md');
  const name = target.slice(target.lastIndexOf('/') + 1);
  return name === '' || name.includes('.') ? undefined : `${target}.md`;
}

const isMarkdown = (path: string) => /\.md$/i.test(path);

/** Replace the markers of `fields` by resolved URLs; report what cannot be resolved. */
export function resolveRefs(path: string, fields: LessonFields, refs: readonly PlacedRef[], index: RepoIndex, out: Diagnostic[]): ResolvedLesson {
  const urls: Record<PlacedRef['field'], string[]> = { body: [], description: [] };
  const assets = new Map<string, LessonAsset>();
  const links = new Set<string>();
  const deps = new Set<string>();
  const lessonLinks = new Map<string, LinkPlace[]>();
  const pages = new Set<string>();
  const own = index.lessons.get(path)?.anchors;
  for (const ref of refs) {
    const place = { line: ref.line, column: ref.column };
    // A reference written in an included file resolves from where that file lies.
    const from = ref.base ?? path;
    const { rawPath, target, fragment, rawFragment, bySite } = refTarget(from, ref.url, index.sitePath && ((address) => index.sitePath!(path, address)));
    urls[ref.field][ref.index] = ref.url;
    if (rawPath === '') {
      if (fragment !== undefined && fragment !== '' && own && !hasAnchor(own, fragment, rawFragment)) missingAnchor(path, place, fragment, 'this lesson', own, out);
      continue;
    }
    if (target === undefined) {
      const site = index.siteOf?.(path);
      // A book at the repo's root links its site's other books with ../ too.
      if (site) urls[ref.field][ref.index] = siteLink(ref.url, path, site);
      else out.push(diag('lesson/ref-outside-repo', path, place, `${JSON.stringify(ref.url)} points outside the repo`));
      continue;
    }
    const candidates = lessonCandidates(target);
    const lessonPath = ref.image || index.files.has(target) ? undefined : candidates.find((c) => index.lessons.has(c));
    const lesson = lessonPath === undefined ? undefined : index.lessons.get(lessonPath);
    if (lesson && lessonPath !== undefined) {
      if (fragment !== undefined && fragment !== '' && lesson.anchors && !hasAnchor(lesson.anchors, fragment, rawFragment)) missingAnchor(path, place, fragment, lessonPath, lesson.anchors, out);
      // Whether it is a draft is the linked lesson's own matter: checked over the link graph (links-to-drafts.ts).
      lessonLinks.set(lessonPath, [...(lessonLinks.get(lessonPath) ?? []), place]);
      if (index.config.school?.lesson_url === undefined) {
        out.push(diag('lesson/needs-lesson-url', path, place, `the link ${JSON.stringify(ref.url)} goes to the lesson ${lessonPath}, and coursesync.yaml sets no school.lesson_url to link lesson pages`));
        continue;
      }
      links.add(lesson.key);
      deps.add(lessonPath);
      urls[ref.field][ref.index] = lessonLinkMarker(lesson.key) + (fragment !== undefined ? `#${encodeURIComponent(fragment)}` : '');
      continue;
    }
    const refusal = refusedAt(index.refused, target);
    if (refusal) {
      out.push(refusedRef(path, place, ref.url, refusal));
      continue;
    }
    // A folder link (`../solution/`) shows its README or index, as on GitHub.
    const file = (ref.image ? [target] : candidates).find((c) => index.files.has(c)) ?? target;
    const digest = index.files.get(file);
    const notLesson = digest !== undefined && !ref.image && isMarkdown(file);
    const folder = digest === undefined && !ref.image && index.isFolder(target);
    // What `ignore:` leaves out is not course content, yet the repo holds it (past cohorts,
    // translations): the target, or the page it names (`/2019/security/` for an ignored `_2019/security.md`).
    const ignoredAt = digest === undefined ? (ref.image ? [target] : candidates).find((c) => index.ignored?.(c) !== undefined) : undefined;
    const ignored = ignoredAt === undefined ? undefined : index.ignored?.(ignoredAt);
    const web = index.config.repo_url;
    // What this decision reads (the candidates as lessons, files and ignored paths, a folder) is pageFacts: keep them one.
    if ((notLesson || folder || (ignored && !ref.image)) && web !== undefined) {
      // As on GitHub, where the author wrote it: the file's or the folder's page in the repo.
      urls[ref.field][ref.index] = webLink(web, notLesson ? file : folder ? target : (ignoredAt ?? target), folder || ignored === 'folder', fragment);
      pages.add(target);
      continue;
    }
    if (notLesson) {
      // Never a raw .md download: a link to Markdown means a page, and this one is not a lesson.
      const why = index.notLesson?.(file) ?? 'is not a lesson';
      out.push(diag('lesson/link-not-lesson', path, place, `${JSON.stringify(ref.url)}: ${file} ${why}`));
      continue;
    }
    if (folder) {
      out.push(diag('lesson/folder-without-lesson', path, place, `${JSON.stringify(ref.url)}: the folder ${target || '.'} has no README.md or index.md lesson to show`));
      continue;
    }
    if (ignored) {
      const page = ref.image ? '' : ', or set `repo_url:` in coursesync.yaml to link its page in the repo';
      out.push(diag('lesson/missing-file', path, place, `${JSON.stringify(ref.url)}: ${ignoredAt} is left out by \`ignore:\` in coursesync.yaml`, `remove the pattern that matches it from \`ignore:\`, or do not reference the file${page}`));
      continue;
    }
    const site = digest === undefined ? index.siteOf?.(path) : undefined;
    if (site && !target.startsWith(site.dir === '' ? '' : `${site.dir}/`)) {
      // A link out of the book to a page the repo does not hold (mdBook's ../std/…): the page on the book's site.
      urls[ref.field][ref.index] = siteLink(ref.url, path, site);
      continue;
    }
    const unread = digest === undefined ? privateReason(target) : undefined;
    if (unread !== undefined) {
      out.push(diag('lesson/missing-file', path, place, `${JSON.stringify(ref.url)}: ${unread}`, 'link a copy kept outside it, or its page on the web (https://…)'));
      continue;
    }
    if (digest === undefined && target.includes('{{')) {
      // `{{site.baseurl}}/x`: with no blank in it, Markdown takes the expression as part of the address.
      out.push(diag('lesson/missing-file', path, place, `${JSON.stringify(ref.url)}: no file ${target} in the repo: its {{ … }} is a template expression coursesync does not run`, 'write the address as a path relative to this file (../assets/figure.png), as GitHub shows it'));
      continue;
    }
    if (digest === undefined) {
      const md = candidates[3];
      if (md !== undefined) {
        // x.html and x are x.md beside them: say both were looked for.
        const near = nearestFile(md, [...index.lessons.keys(), ...index.files.keys()]);
        const html = /\.html?$/i.test(target);
        const as = (file: string) => relative(from, html ? file.replace(/\.md$/i, '.html') : file);
        const rule = html ? 'an .html link shows the .md file beside it (as in mdBook)' : 'a link with no extension shows the .md file of that name (as on GitHub Pages)';
        // `/en/part1/intro`: most often an address on the course's own site (a permalink), which program.yaml can map.
        const site = rawPath.startsWith('/') && !bySite && !near ? "; if it is an address on the course's own site, map it to its page's file (or to the folder served there) with `site_paths:` in program.yaml" : '';
        out.push(diag('lesson/missing-file', path, place, `${JSON.stringify(ref.url)}: neither ${target} nor ${md} is in the repo`, `${rule}${near ? `: did you mean ${as(near)}?` : site}`));
        continue;
      }
      // `code/README.md` for a folder of code with no README (a zoomcamp's dbt project): the folder is what was meant.
      const folder = FOLDER_PAGE.test(target) && dirOf(target) !== '' && index.isFolder(dirOf(target)) ? dirOf(target) : undefined;
      const near = folder === undefined ? nearestFile(target, [...index.files.keys(), ...index.lessons.keys()]) : undefined;
      const hint = folder !== undefined ? `${folder}/ has no ${target.slice(folder.length + 1)}: link the folder itself (${relative(from, `${folder}/`)}), which goes to its page in the repo` : near ? `did you mean ${relative(from, near)}?` : undefined;
      out.push(diag('lesson/missing-file', path, place, `${JSON.stringify(ref.url)}: no file ${target} in the repo`, hint));
      continue;
    }
    const base = index.config.assets?.base_url;
    if (base === undefined) {
      const what = ref.image ? 'image' : 'file';
      out.push(diag('lesson/needs-assets-url', path, place, `the ${what} ${file} is in the repo, and coursesync.yaml sets no assets.base_url to publish it at`));
      continue;
    }
    const name = assetFileName(file, digest);
    if (!assets.has(file)) assets.set(file, { path: file, digest, name, image: ref.image });
    deps.add(file);
    urls[ref.field][ref.index] = base + name + (fragment !== undefined ? `#${encodeURIComponent(fragment)}` : '');
  }
  const fill = (html: string, field: PlacedRef['field']) =>
    html.replace(REF_MARKER, (m, i: string) => {
      const url = urls[field][Number(i)];
      return url === undefined ? m : escapeAttribute(url);
    });
  const resolved: ResolvedLesson = { fields: { ...fields, body: fill(fields.body, 'body'), description: fill(fields.description, 'description') }, assets: [...assets.values()], links: [...links], deps: [...deps].sort(), lessonLinks };
  if (pages.size > 0) resolved.pages = [...pages].sort();
  return resolved;
}

/** What a repo answers about its paths, as a link's target is judged. */
export interface RepoPaths {
  isLesson(path: string): boolean;
  isFile(path: string): boolean;
  isFolder(path: string): boolean;
  ignored(path: string): 'file' | 'folder' | undefined;
}

/**
 * What resolveRefs reads to send a link to `target` to its page in the repo rather than to a
 * lesson or an asset: each of its lesson candidates as a lesson, a file or what `ignore:` leaves
 * out, and whether it is a folder. A lesson linking such a page is recorded with these
 * (lesson-builds.ts DepIndex.pageDigest), so a checkout takes it from the state until one of
 * them changes (the folder gains a README lesson, the file becomes one, ignore: changes).
 */
export function pageFacts(target: string, repo: RepoPaths): string {
  const candidates = lessonCandidates(target).map((c) => (repo.isLesson(c) ? 'L' : repo.isFile(c) ? 'F' : (IGNORED_MARK[repo.ignored(c) ?? ''] ?? '-')));
  return `${candidates.join('')}${repo.isFolder(target) ? 'D' : '-'}`;
}

const IGNORED_MARK: Readonly<Record<string, string>> = { file: 'i', folder: 'g' };

/** The page of a repo file or folder under `repo_url:`, a folder URL (GitHub's `tree/main/` serves files too: it redirects them to `blob/`). */
function webLink(repoUrl: string, target: string, folder: boolean, fragment: string | undefined): string {
  const path = target.split('/').map(encodeURIComponent).join('/') + (folder && target !== '' ? '/' : '');
  return new URL(path, repoUrl).href + (fragment !== undefined && fragment !== '' ? `#${encodeURIComponent(fragment)}` : '');
}

/** The fields with every reference left as written (for a lesson compiled outside its repo). */
export function fieldsAsWritten(fields: LessonFields, refs: readonly PlacedRef[]): LessonFields {
  const urls: Record<PlacedRef['field'], string[]> = { body: [], description: [] };
  for (const ref of refs) urls[ref.field][ref.index] = ref.url;
  const fill = (html: string, field: PlacedRef['field']) => html.replace(REF_MARKER, (m, i: string) => escapeAttribute(urls[field][Number(i)] ?? m));
  return { ...fields, body: fill(fields.body, 'body'), description: fill(fields.description, 'description') };
}

/** The refusal of `target` or of a folder above it (a folder link `gitdir -> .git` refuses `gitdir/config`). */
function refusedAt(refused: RepoIndex['refused'], target: string): { at: string; why: RefusedFile } | undefined {
  if (!refused || refused.size === 0) return undefined;
  for (let at = target; at !== ''; at = dirOf(at)) {
    const why = refused.get(at);
    if (why) return { at, why };
  }
  return undefined;
}

function refusedRef(path: string, place: { line: number; column: number }, url: string, { at, why }: { at: string; why: RefusedFile }): Diagnostic {
  if (why.kind === 'too-large') {
    const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
    return diag('lesson/asset-too-large', path, place, `${JSON.stringify(url)}: ${at} is ${mb(why.bytes)}, over the ${mb(MAX_ASSET_BYTES)} a published file may have`);
  }
  const where = why.why === 'ignored' ? 'a path `ignore:` leaves out' : 'inside a hidden folder or node_modules';
  return diag('lesson/asset-private', path, place, `${JSON.stringify(url)}: ${at} is a symlink to ${why.real}, ${where}, and is never published`);
}

/** Whether a #fragment reaches one of `anchors` as a browser finds it: the fragment as written, then percent-decoded. */
function hasAnchor(anchors: ReadonlySet<string>, fragment: string, rawFragment: string | undefined): boolean {
  return (rawFragment !== undefined && anchors.has(rawFragment)) || anchors.has(fragment);
}

function missingAnchor(path: string, place: { line: number; column: number }, fragment: string, where: string, anchors: ReadonlySet<string>, out: Diagnostic[]): void {
  const near = suggest(fragment, [...anchors]);
  const hint = near ? `did you mean #${near}?` : anchors.size > 0 ? `headings and anchors there: ${[...anchors].slice(0, 8).map((a) => `#${a}`).join(', ')}` : 'that lesson has no headings or anchors';
  out.push(diag('lesson/missing-anchor', path, place, `#${fragment}: no heading or anchor with this id in ${where}`, hint));
}

/** `url`, written in the lesson at `path`, as a page of the book's site (the lesson's page is its path below the book's folder). */
function siteLink(url: string, path: string, site: { dir: string; url: string }): string {
  const page = path.slice(site.dir === '' ? 0 : site.dir.length + 1);
  return new URL(url, new URL(page, site.url)).href;
}

/** A file of the same name elsewhere (a moved image), else a close path with the same extension (a typo). */
function nearestFile(target: string, paths: readonly string[]): string | undefined {
  const name = target.slice(target.lastIndexOf('/') + 1);
  const sameName = paths.filter((p) => p.slice(p.lastIndexOf('/') + 1) === name);
  // Of files of that name (every module has a README.md), the one nearest the target's folder.
  const shared = (p: string) => sharedFolders(p, target);
  if (sameName.length > 0) return sameName.sort((a, b) => shared(b) - shared(a) || a.length - b.length)[0];
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '';
  return suggest(target, paths.filter((p) => p.toLowerCase().endsWith(ext)));
}

/** How many leading folders two repo paths share. */
function sharedFolders(a: string, b: string): number {
  const x = a.split('/').slice(0, -1);
  const y = b.split('/').slice(0, -1);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** A folder's page: what GitHub shows when the folder is opened. */
const FOLDER_PAGE = /(^|\/)(readme|index)\.md$/i;

/** `to` as a path relative to the folder of `from` (for hints authors can paste). */
function relative(from: string, to: string): string {
  const a = dirOf(from).split('/').filter(Boolean);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}
