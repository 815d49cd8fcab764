/**
 * The generated JSON schemas (what editors check) are as strict as validate: a document validate
 * rejects with a field-level code is rejected by its schema, and every file validate accepts is
 * accepted. Checked with ajv, a JSON Schema validator that knows nothing of coursesync.
 */
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { loadCourse } from '../../src/load/load-course.js';
import { splitFrontMatter } from '../../src/source/split-front-matter.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA_FILES = { program: 'program.schema.json', section: 'section.schema.json', lesson: 'lesson.schema.json', config: 'coursesync.schema.json' } as const;
type Kind = keyof typeof SCHEMA_FILES;

/** The codes validate reports for what a schema can say (the rest need the school, rendering or other files). */
const SCHEMA_CODES = new Set([
  'program/unknown-key', 'program/missing-field', 'program/invalid-field',
  'section/unknown-key', 'section/missing-field', 'section/invalid-field', 'section/id-or-name', 'section/lessons-list-duplicate',
  'config/unknown-key', 'config/missing-field', 'config/invalid-field',
  'lesson/unknown-key', 'lesson/missing-field', 'lesson/invalid-field',
  'lesson/video-not-allowed', 'lesson/video-sources', 'lesson/embed-code-not-allowed',
]);

/** Rules that depend on the lesson type. */
const ONLY_WHEN_CODES = new Set(['lesson/video-not-allowed', 'lesson/embed-code-not-allowed']);
const hasType = (doc: unknown) => typeof doc === 'object' && doc !== null && 'lesson_type' in doc;

let validators: Record<Kind, ValidateFunction>;
beforeAll(async () => {
  // The schemas are draft-07 (what editors and linters read best). Formats (uri) are not checked; errorMessage is read by
  // editors; `required` inside if/oneOf names properties declared at the object level; a value of `vars:` is
  // `type: [string, number, boolean]` (draft-07 allows a list of types).
  const ajv = new Ajv({ allErrors: true, validateFormats: false, strict: true, strictRequired: false, allowUnionTypes: true });
  ajv.addKeyword('errorMessage');
  const entries = await Promise.all(
    Object.entries(SCHEMA_FILES).map(async ([kind, file]) => [kind, ajv.compile(JSON.parse(await readFile(join(root, 'schema', file), 'utf8')) as object)] as const),
  );
  validators = Object.fromEntries(entries) as Record<Kind, ValidateFunction>;
});

function kindOf(path: string): Kind | undefined {
  const base = path.split('/').pop() ?? '';
  if (base === 'program.yaml') return 'program';
  if (base === 'section.yaml') return 'section';
  if (base === 'coursesync.yaml' && !path.includes('/')) return 'config';
  return base.endsWith('.md') ? 'lesson' : undefined;
}

/** The YAML document of a file as the schema sees it (front-matter for a lesson); undefined when none parses. */
function documentOf(kind: Kind, text: string): unknown {
  let yamlText = text;
  if (kind === 'lesson') {
    const split = splitFrontMatter(text.replace(/\r\n/g, '\n'));
    if (!split.frontMatter || split.frontMatterUnclosed) return undefined;
    yamlText = split.frontMatter.text;
  }
  try {
    return parse(yamlText, { uniqueKeys: true, customTags: [] }) as unknown;
  } catch {
    return undefined;
  }
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.coursesync' || e.name === '.git') continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

/**
 * A lesson's front-matter as compile reads it under the repo's coursesync.yaml, which a
 * schema of one file cannot see: the keys left to other tools (`front_matter: { ignore }`)
 * dropped, and `title:` taken as `name:` under `name_from: title`.
 */
async function asCompileReads(repo: string): Promise<(doc: unknown) => unknown> {
  let config: { front_matter?: { ignore?: string[] }; lesson_defaults?: { name_from?: string } } = {};
  try {
    config = (parse(await readFile(join(repo, 'coursesync.yaml'), 'utf8')) as typeof config | null) ?? {};
  } catch {
    // No coursesync.yaml (or one validate reports): the files are read as they are.
  }
  const ignored = config.front_matter?.ignore ?? [];
  const titleIsName = config.lesson_defaults?.name_from === 'title';
  return (doc) => {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
    const { title, ...rest } = Object.fromEntries(Object.entries(doc).filter(([k]) => !ignored.includes(k))) as Record<string, unknown>;
    if (title === undefined) return rest;
    return titleIsName ? { name: title, ...rest } : { title, ...rest };
  };
}

/** What validate says of every file of `repo` that a schema checks, and what the schema says. */
async function judge(repo: string): Promise<Array<{ file: string; codes: string[]; doc: unknown; schemaOk: boolean | undefined }>> {
  const result = await loadCourse(repo, { renderThreads: 1 });
  const asRead = await asCompileReads(repo);
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of result.diagnostics) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const judged = [];
  for (const full of await walk(repo)) {
    const file = relative(repo, full).split('\\').join('/');
    const kind = kindOf(file);
    if (!kind) continue;
    const codes = (byFile.get(file) ?? []).map((d) => d.code);
    // YAML that does not parse, or an empty file: no document for a schema to judge.
    if (codes.some((c) => c.startsWith('yaml/') || c.startsWith('file/') || c.startsWith('lesson/no-name') || c.startsWith('lesson/front-matter-unclosed'))) continue;
    const written = documentOf(kind, await readFile(full, 'utf8'));
    const doc = kind === 'lesson' ? asRead(written) : written;
    judged.push({ file, codes, doc, schemaOk: doc === undefined ? undefined : validators[kind](doc) });
  }
  return judged;
}

describe('every fixture and example: the schema rejects exactly what validate rejects at field level', async () => {
  const repos = [
    ...(await readdir(join(root, 'test/fixtures/repos'))).map((r) => join(root, 'test/fixtures/repos', r)),
    join(root, 'examples'),
  ];
  it.each(repos.map((r) => [relative(root, r), r]))('%s', async (_name, repo) => {
    for (const { file, codes, schemaOk, doc } of await judge(repo)) {
      if (schemaOk === undefined) continue;
      // Rules on the lesson type need the type: a file that leaves it out gets it from
      // lesson_defaults (other files), so only validate can judge it.
      const judgeable = codes.filter((c) => SCHEMA_CODES.has(c) && !(ONLY_WHEN_CODES.has(c) && !hasType(doc)));
      const rejected = judgeable.length > 0;
      expect(schemaOk, `${file}: validate says [${codes.join(', ')}]`).toBe(!rejected);
    }
  });
});

describe('each cross-field rule: validate and the schema both reject it', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cs-strict-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const lesson = (front: string) => `---\n${front}\n---\n\nSee the [guide](https://example.com/guide) and the table:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`;
  const cases: Array<{ rule: string; code: string; section?: string; lesson?: string; config?: string }> = [
    { rule: 'a lesson URL without {lesson_id}', code: 'config/invalid-field', config: 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons\n' },
    { rule: 'section.yaml gives both id and name', code: 'section/id-or-name', section: 'id: sec_1\nname: Getting started\n' },
    { rule: 'section.yaml gives neither id nor name', code: 'section/id-or-name', section: 'lessons: [intro]\n' },
    { rule: 'a key listed twice in lessons', code: 'section/lessons-list-duplicate', section: 'id: sec_1\nlessons: [intro, intro]\n' },
    { rule: 'two video hosts', code: 'lesson/video-sources', lesson: 'name: Welcome\nvideo:\n  host_a: dQw4w9WgXcQ\n  host_b: "76979871"' },
    { rule: 'a video with no source', code: 'lesson/video-sources', lesson: 'name: Welcome\nvideo: {}' },
    { rule: 'video on a text lesson', code: 'lesson/video-not-allowed', lesson: 'name: Welcome\nlesson_type: text\nvideo:\n  host_a: dQw4w9WgXcQ' },
    { rule: 'embed_code on a text lesson', code: 'lesson/embed-code-not-allowed', lesson: 'name: Welcome\nlesson_type: text\nembed_code: <div class="quiz">Quiz</div>' },
    { rule: 'embed_code on a lesson whose type is the default (video)', code: 'lesson/embed-code-not-allowed', lesson: 'name: Welcome\nlesson_type: video\nvideo:\n  host_a: dQw4w9WgXcQ\nembed_code: <div>x</div>' },
    { rule: 'a blank lesson name', code: 'lesson/invalid-field', lesson: 'name: "   "' },
    { rule: 'an empty lesson name', code: 'lesson/invalid-field', lesson: 'name: ""' },
  ];

  it.each(cases)('$rule', async ({ code, section, lesson: front, config }) => {
    const repo = join(dir, code.replace('/', '-') + Math.random().toString(36).slice(2, 8));
    await mkdir(join(repo, 'p/s'), { recursive: true });
    await writeFile(join(repo, 'p/program.yaml'), 'id: prog_1\n');
    const sectionText = section ?? 'id: sec_1\n';
    const lessonText = lesson(front ?? 'name: Introduction\nlesson_type: text');
    await writeFile(join(repo, 'p/s/section.yaml'), sectionText);
    await writeFile(join(repo, 'p/s/intro.md'), lessonText);
    if (config !== undefined) await writeFile(join(repo, 'coursesync.yaml'), config);
    const result = await loadCourse(repo, { renderThreads: 1 });
    const [file, kind, text] =
      config !== undefined ? ['coursesync.yaml', 'config' as const, config] : section !== undefined ? ['p/s/section.yaml', 'section' as const, section] : ['p/s/intro.md', 'lesson' as const, lessonText];
    expect(result.diagnostics.filter((d) => d.file === file).map((d) => d.code)).toContain(code);
    expect(validators[kind](documentOf(kind, text))).toBe(false);
  });

  it('a lesson that leaves lesson_type to the section\'s defaults is judged by validate alone', async () => {
    // The schema sees one file: `embed_code` without `lesson_type` may be right (an embed default).
    const repo = join(dir, 'defaults');
    await mkdir(join(repo, 'p/s'), { recursive: true });
    await writeFile(join(repo, 'p/program.yaml'), 'id: prog_1\n');
    await writeFile(join(repo, 'p/s/section.yaml'), 'id: sec_1\nlesson_defaults:\n  lesson_type: embed\n');
    const text = lesson('name: Quiz\nembed_code: <div class="quiz">Quiz</div>');
    await writeFile(join(repo, 'p/s/quiz.md'), text);
    const result = await loadCourse(repo, { renderThreads: 1 });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(validators.lesson(documentOf('lesson', text))).toBe(true);
  });
});
