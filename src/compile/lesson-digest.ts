/**
 * A lesson's digest (PURE): one hash of everything its compiled fields depend on, so a lesson
 * whose digest matches the one recorded when it was applied is unchanged without reading,
 * parsing or rendering its Markdown. It covers the file's path (the key may come from its
 * name) and bytes, the settings it inherits (lesson defaults; the front-matter keys left to
 * other tools; with references, the assets base URL, the lesson URL template and `repo_url`),
 * and each file it references: an asset by its bytes, a linked lesson by its bytes (its key and
 * anchors) and by where the school has it (program and lesson id, which its link URL holds), a
 * path it links at its page in the repo by what decides that (resolve-refs.ts pageFacts). A lesson of a program with `site_url:` has that address
 * in its settings too (its links that leave the book go there): a book's lessons are then known
 * like any others, and the settings of a program without one are what they always were.
 */
import type { CourseConfig } from '../model/config.js';
import type { LessonBuildInputs, LinkPlace } from '../model/desired.js';
import type { Inherited } from '../model/lesson.js';
import { sha256 } from '../model/sha256.js';

export type { LessonBuildInputs } from '../model/desired.js';
export type LessonDep = LessonBuildInputs['deps'][number];

const settingsMemo = new WeakMap<Inherited, Map<string, string>>();

/**
 * The inherited settings a lesson's HTML depends on, as one canonical string (made once per
 * defaults object, references and site). `site`: its program's `site_url:`.
 */
export function lessonSettings(defaults: Inherited, config: CourseConfig, hasDeps: boolean, site?: string): string {
  const key = `${hasDeps ? `${config.assets?.base_url ?? ''}\0${config.school?.lesson_url ?? ''}\0${config.repo_url ?? ''}` : ''}\u0001${site ?? ''}`;
  let memo = settingsMemo.get(defaults);
  if (!memo) settingsMemo.set(defaults, (memo = new Map()));
  let text = memo.get(key);
  if (text === undefined) memo.set(key, (text = settingsText(defaults, config, hasDeps, site)));
  return text;
}

function settingsText(defaults: Inherited, config: CourseConfig, hasDeps: boolean, site: string | undefined): string {
  const sorted = Object.fromEntries(
    Object.entries(defaults)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const refs = hasDeps ? { assets: config.assets?.base_url ?? null, lesson_url: config.school?.lesson_url ?? null, repo_url: config.repo_url ?? null } : {};
  return JSON.stringify({ defaults: sorted, ...refs, ...(site !== undefined && { site }) });
}

/** The referenced files at `paths` as the repo has them now; undefined when one is gone. */
export function depsNow(paths: readonly string[], depOf: (path: string) => Omit<LessonDep, 'path'> | undefined): LessonDep[] | undefined {
  const out: LessonDep[] = [];
  for (const path of paths) {
    const known = depOf(path);
    if (known === undefined) return undefined;
    out.push({ path, ...known });
  }
  return out;
}

const hex8 = (text: string) => sha256(text).slice(0, 8);

/** The settings part, by settings text: most lessons share a few. */
const settingsParts = new Map<string, string>();
function settingsPart(settings: string): string {
  let part = settingsParts.get(settings);
  if (part === undefined) {
    if (settingsParts.size > 1000) settingsParts.clear();
    settingsParts.set(settings, (part = hex8(`settings\0${settings}`)));
  }
  return part;
}

/**
 * The digest (32 hex) of the lesson at `path`: 8 hex each of its file (path and bytes), its
 * settings and its references, then 8 of all of them together, so a plan can say which of them
 * changed (plan `cause`) while any change still differs in at least 64 bits.
 * @param placeOf where the school has the lesson at a path (`program/id`), for link targets
 */
export function lessonDigest(path: string, build: LessonBuildInputs, placeOf: (path: string) => string | undefined): string {
  const refs = refsText(build, placeOf);
  const file = filePartText(path, build.file);
  return hex8(file) + settingsPart(build.settings) + hex8(refs) + wholePart(file, build.settings, refs);
}

/**
 * The text of a digest's references part: a line per referenced file, included file and
 * variable, in that order. What the text takes in: a lesson with no include and no variable
 * keeps the digest it had before either existed.
 */
function refsText(build: LessonBuildInputs, placeOf: (path: string) => string | undefined): string {
  let refs = 'refs';
  for (const dep of build.deps) refs += dep.kind === 'lesson' ? `\nlesson\0${dep.path}\0${dep.digest}\0${placeOf(dep.path) ?? '-'}` : `\n${dep.kind}\0${dep.path}\0${dep.digest}`;
  for (const inc of build.includes ?? []) refs += `\ninclude\0${inc.path}\0${inc.digest}`;
  for (const v of build.vars ?? []) refs += `\nvar\0${v.name}\0${v.value}`;
  return refs;
}

/**
 * Whether `recorded` is lessonDigest's value for the lesson at `path` with these inputs. Part
 * by part, the file's first, so an edited lesson is rejected after one hash; a match has
 * computed and compared every part and the whole.
 */
export function digestMatches(recorded: string, path: string, build: LessonBuildInputs, placeOf: (path: string) => string | undefined): boolean {
  const file = filePartText(path, build.file);
  if (!recorded.startsWith(hex8(file)) || !recorded.startsWith(settingsPart(build.settings), 8)) return false;
  const refs = refsText(build, placeOf);
  return recorded.startsWith(hex8(refs), 16) && recorded.startsWith(wholePart(file, build.settings, refs), 24) && recorded.length === 32;
}

const filePartText = (path: string, fileDigest: string) => `file\0${path}\0${fileDigest}`;
const wholePart = (file: string, settings: string, refs: string) => hex8(`${file}\nsettings\0${settings}\n${refs}`);

/** What changed between two digests of one lesson, most telling first; undefined when neither part did. */
export function digestChange(before: string, after: string): 'file' | 'references' | 'settings' | undefined {
  if (before.slice(0, 8) !== after.slice(0, 8)) return 'file';
  if (before.slice(16, 24) !== after.slice(16, 24)) return 'references';
  if (before.slice(8, 16) !== after.slice(8, 16)) return 'settings';
  return undefined;
}

/**
 * What a lesson's text took in, as the state records it (`inputs`): `include:<path>@<8 hex>`
 * per included file and `var:<name>@<8 hex>` per variable, the hex being of the file's bytes or
 * the variable's value, so a plan can name the one that changed. Undefined when none.
 */
export function inputsRecord(build: LessonBuildInputs): string[] | undefined {
  const list = [...(build.includes ?? []).map((i) => `include:${i.path}@${i.digest.slice(0, 8)}`), ...(build.vars ?? []).map((v) => `var:${v.name}@${varHash(v.value)}`)];
  return list.length > 0 ? list : undefined;
}

/** The 8 hex the state keeps of a variable's value. */
export const varHash = (value: string): string => hex8(`var\0${value}`);

/** A state's `inputs` read back: included paths and variable names, each with its 8 hex. */
export function parseInputs(inputs: readonly string[] | undefined): { includes: Map<string, string>; vars: Map<string, string> } {
  const parsed = { includes: new Map<string, string>(), vars: new Map<string, string>() };
  for (const entry of inputs ?? []) {
    const colon = entry.indexOf(':');
    const at = entry.lastIndexOf('@');
    const kind = entry.slice(0, colon);
    if (kind === 'include') parsed.includes.set(entry.slice(colon + 1, at), entry.slice(at + 1));
    else if (kind === 'var') parsed.vars.set(entry.slice(colon + 1, at), entry.slice(at + 1));
  }
  return parsed;
}

/**
 * A referenced file as the state's `deps` records it: its path, `@`, and 4 hex of its bytes'
 * digest, so a plan can name the image that changed (5 bytes a reference; a state written
 * before carries bare paths, read as such); for a linked lesson, then `@` and where each link to
 * it is written (`line:column`, comma-separated), so a plan re-checks the link against the
 * lesson's draft status without reading the file (links-to-drafts.ts). A path a link goes to
 * at its page in the repo ends in `@page` (`cohorts/2024@1a2b@page`; `@1a2b@page` for the
 * root): a coursesync that knows no such record reads it as a file the repo does not have, and
 * compiles the lesson.
 */
export const depRecord = (dep: Pick<LessonDep, 'path' | 'digest' | 'at' | 'kind'>): string =>
  `${dep.path}@${dep.digest.slice(0, 4)}${dep.kind === 'page' ? '@page' : dep.at && dep.at.length > 0 ? `@${dep.at.map((p) => `${p.line}:${p.column}`).join(',')}` : ''}`;

/** A `deps` entry read back: the path, the 4 hex of its digest when recorded, and the places of the links to it; `page` for a path linked at its page in the repo. */
export function parseDepRecord(entry: string): { path: string; hash?: string; at?: LinkPlace[]; page?: true } {
  if (entry.endsWith('@page')) {
    const m = /^(.*)@([0-9a-f]{4})@page$/.exec(entry);
    return m ? { path: m[1]!, hash: m[2]!, page: true } : { path: entry };
  }
  const m = /^(.+)@([0-9a-f]{4})(?:@(\d+:\d+(?:,\d+:\d+)*))?$/.exec(entry);
  if (!m) return { path: entry };
  const parsed: { path: string; hash?: string; at?: LinkPlace[] } = { path: m[1]!, hash: m[2]! };
  if (m[3]) parsed.at = m[3].split(',').map((p) => ({ line: Number(p.slice(0, p.indexOf(':'))), column: Number(p.slice(p.indexOf(':') + 1)) }));
  return parsed;
}
