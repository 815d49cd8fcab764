/**
 * `coursesync clone` (I/O): a repo-side copy of a section folder. Each lesson file is copied
 * with a fresh key (so apply creates it), `copied_from: <old key>` and no `aliases` (they belong
 * to the original); the front-matter is edited as a YAML document, so comments and layout stay.
 * Nothing is sent to the school: for copies that must keep media or steps, use
 * `coursesync duplicate section` instead.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, relative, sep } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { Document, parseDocument } from 'yaml';
import { loadCourse } from '../load/load-course.js';
import { splitFrontMatter } from '../source/split-front-matter.js';
import { readStateFile } from '../state/state-file.js';
import { uniqueKey } from './open-repo.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import type { CourseConfig } from '../model/config.js';
import { createSchoolClient } from '../school/client.js';
import { resolveConnection } from '../school/connection.js';
import { listProgramSections } from '../school/program-sections.js';

export interface CloneSectionOptions {
  /**
   * The new folder's section: `id:X` / `name:X`, a value with whitespace (a name), or a bare
   * value, looked up in the school's sections of the program (an id, else an exact name).
   */
  section: string;
  /** For looking a bare value up: COURSESYNC_TOKEN and the school's address. */
  env?: NodeJS.ProcessEnv;
  baseUrl?: string;
  tokenFile?: string;
}

export interface CloneSectionResult {
  from: string;
  to: string;
  ref: { id: string } | { name: string };
  lessons: Array<{ from: string; to: string; key: string; copiedFrom: string }>;
}

/** `id:X` / `name:X` force the kind; otherwise a value with whitespace is a name, anything else an id. */
export function parseSectionRef(value: string): { id: string } | { name: string } {
  const m = /^(id|name):(.+)$/.exec(value);
  if (m) return m[1] === 'id' ? { id: m[2]!.trim() } : { name: m[2]!.trim() };
  return /\s/.test(value.trim()) ? { name: value.trim() } : { id: value.trim() };
}

/**
 * The section a `--section` value names. A forced kind (`id:`/`name:`) or a value with
 * whitespace is taken as it is; a bare value (`Tooling`, `sec_9`) could be either, so the
 * program's sections are listed and it is an id if one has it, else an exact name (never a name
 * taken as an id).
 * @throws CoursesyncError `clone/section-unclear` without a token, `clone/section-unknown`
 */
async function resolveSectionRef(value: string, programId: string, config: CourseConfig, options: CloneSectionOptions): Promise<{ id: string } | { name: string }> {
  const ref = parseSectionRef(value);
  if (/^(id|name):/.test(value) || 'name' in ref) return ref;
  let connection;
  try {
    connection = resolveConnection({ flags: { baseUrl: options.baseUrl, tokenFile: options.tokenFile }, config, env: options.env ?? process.env });
  } catch (e) {
    if (e instanceof CoursesyncError && e.code === 'connection/no-token') throw failure('clone/section-unclear', { value: ref.id });
    throw e;
  }
  const client = createSchoolClient({ baseUrl: connection.baseUrl, token: connection.token, timeoutMs: connection.timeoutMs });
  const sections = await listProgramSections(client, programId);
  if (sections.some((s) => s.id === ref.id)) return ref;
  if (sections.some((s) => s.name === ref.id)) return { name: ref.id };
  throw failure('clone/section-unknown', { value: ref.id, programId, sections: sections.map((s) => `${s.id} "${s.name}"`) });
}

/**
 * A lesson file's text with a new key and copied_from (front-matter edited as a YAML document;
 * TOML front-matter, which compiled, becomes YAML: its values, not its comments).
 */
export function cloneLessonText(text: string, newKey: string, oldKey: string): string {
  const split = splitFrontMatter(text);
  const fm = split.frontMatter;
  const doc = fm?.toml ? new Document(parseToml(fm.text), { version: '1.2' }) : parseDocument(fm?.text ?? '', { version: '1.2', uniqueKeys: false });
  if (!doc.contents) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  doc.set('key', newKey);
  doc.set('copied_from', oldKey);
  doc.delete('aliases');
  return `---\n${doc.toString({ lineWidth: 0 })}---\n${split.body.text}`;
}

/** Copy the section folder `from` to the new folder `to` of the repo at `dir`. */
export async function cloneSection(dir: string, from: string, to: string, options: CloneSectionOptions): Promise<CloneSectionResult> {
  const root = resolve(dir);
  const rel = (p: string) => relative(root, resolve(p)).split(sep).join('/');
  const result = await loadCourse(root);
  if (!result.desired) {
    throw failure('course/invalid', { dir, errors: result.diagnostics.filter((d) => d.severity === 'error').length, action: 'cloned' }, { diagnostics: result.diagnostics });
  }
  const desired = result.desired;
  const source = desired.programs.flatMap((p) => p.sections).find((s) => s.path === rel(from));
  if (!source) {
    throw failure('clone/not-a-section', { arg: from, dir });
  }
  const target = rel(to);
  const program = desired.programs.find((p) => p.path === dirname(target).split(sep).join('/').replace(/^\.$/, ''));
  if (!program || target.startsWith('..')) {
    throw failure('clone/bad-target', { to, example: `coursesync clone ${from} ${join(dirname(from), `${basename(from)}-copy`)} --section <id|name>` });
  }
  const entries = await readdir(resolve(to)).catch(() => []);
  if (entries.length > 0) throw failure('clone/target-exists', { to });
  const ref = await resolveSectionRef(options.section, program.id, desired.config, options);
  const { state } = await readStateFile(root);
  // A folder given by name is compared by the id the state resolved it to, when it has one.
  const idOf = (s: (typeof program.sections)[number]) => ('id' in s.ref ? s.ref.id : state.sections[s.path]?.id);
  const clash = program.sections.find((s) => ('id' in ref && idOf(s) === ref.id) || ('name' in ref && 'name' in s.ref && s.ref.name === ref.name));
  if (clash) {
    throw failure('clone/section-taken', { path: clash.path, section: 'id' in ref ? ref.id : `"${ref.name}"` });
  }

  const taken = new Set<string>(Object.keys(state.lessons));
  for (const p of desired.programs) for (const s of p.sections) for (const l of s.lessons) for (const k of [l.key, ...l.aliases]) taken.add(k);
  const lessons = source.lessons.map((l) => ({ from: l.path, key: uniqueKey(`${l.key}-copy`, taken), copiedFrom: l.key, to: `${target}/${basename(l.path)}` }));
  const sectionText = await readFile(join(root, source.path, 'section.yaml'), 'utf8');
  const sectionDoc = parseDocument(sectionText, { version: '1.2', uniqueKeys: false });
  // Set in place (a comment on the line stays); drop the other form: section.yaml takes one.
  if ('id' in ref) {
    sectionDoc.delete('name');
    sectionDoc.set('id', ref.id);
  } else {
    sectionDoc.delete('id');
    sectionDoc.set('name', ref.name);
  }
  const order = sectionDoc.get('lessons');
  if (order !== undefined) sectionDoc.set('lessons', lessons.map((l) => l.key));

  await mkdir(resolve(to), { recursive: true });
  await writeFile(join(resolve(to), 'section.yaml'), sectionDoc.toString({ lineWidth: 0 }), { flag: 'wx' });
  for (const l of lessons) {
    const text = (await readFile(join(root, l.from), 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    await writeFile(join(root, l.to), cloneLessonText(text, l.key, l.copiedFrom), { flag: 'wx' });
  }
  return { from: source.path, to: target, ref, lessons };
}
