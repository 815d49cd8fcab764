/**
 * The hostile-input generator: course repos that are each valid except for one defect of a
 * known kind (YAML garbage, wrong types, deep nesting, alias bombs, 10 MB strings, invalid
 * UTF-8, NUL bytes, binary `.md`, symlink loops and escapes, keys with path separators,
 * duplicate keys, BOMs, CRLF, empty files, forbidden HTML in odd casings). Each repo says which
 * file the diagnostic must name, and the line when the defect has a known one. Seeded: repo n
 * of seed s is always the same repo.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Rng } from './random.js';

/** File content, or a symlink to create (`OUTSIDE` in the target: a folder outside the repo). */
export type Entry = string | Buffer | { symlink: string };

export interface HostileRepo {
  /** `kind/variant`, for messages. */
  name: string;
  kind: string;
  files: Record<string, Entry>;
  /** The diagnostic must be an error naming this file (repo-relative, `/` separators)… */
  file: string;
  /** …at this line (exact), or `'some'` for any line, or undefined when the defect has no place. */
  line?: number | 'some';
  /** The repo holds a file of about 10 MB (written only in the in-process run). */
  huge?: boolean;
}

export const OUTSIDE = '@OUTSIDE@';

const PROGRAM = 'p/program.yaml';
const SECTION = 'p/s/section.yaml';
const LESSON = 'p/s/01-ok.md';

/** The valid repo every hostile one starts from. */
function base(): Record<string, Entry> {
  return {
    [PROGRAM]: 'id: prog_intro\nname: Intro\n',
    [SECTION]: 'id: sec_start\n',
    [LESSON]: '---\nname: OK\n---\nHello.\n',
  };
}

/** A lesson whose front-matter is `lines` (line 2 onwards of the file) and whose body is `body`. */
function lessonWith(lines: string[], body = 'Body.\n'): string {
  return `---\n${lines.join('\n')}\n---\n${body}`;
}

/** What a maker returns (object literals of several shapes, hence the loose types). */
interface Made {
  name: string;
  files: { [path: string]: Entry | undefined };
  file: string;
  line?: number | 'some' | undefined;
  huge?: boolean | undefined;
}
type Make = (rng: Rng) => Made;

const BAD_YAML = [
  'key: [unclosed',
  'a: "open string',
  '{x: 1',
  'a: b: c',
  '- item\nkey: value',
  'x: @reserved',
  'x: `tick',
  'x: !!binary aGVsbG8=',
  'x: !custom 1',
  '[a, b]: c\n: d',
  '"a": 1\n  b: 2\n c: 3',
  'x: *undefined_alias',
  '? complex\n? key',
  '%YAML 9.9\n---\nx: 1',
  'a:\n\t- tab',
];

const NOISE = ['', 'name: n', '# comment', 'x: 1', 'list:\n  - a', 'q: "quoted"', 'e: ~', 'k: |\n  block'];

const yamlGarbage: Make = (rng) => {
  const garbage = [rng.pick(NOISE), rng.pick(BAD_YAML), rng.pick(NOISE)].filter((s) => s !== '').join('\n');
  const where = rng.int(0, 3);
  if (where === 0) return { name: 'program.yaml', files: { [PROGRAM]: garbage + '\n' }, file: PROGRAM, line: 'some' };
  if (where === 1) return { name: 'section.yaml', files: { [SECTION]: garbage + '\n' }, file: SECTION, line: 'some' };
  if (where === 2) return { name: 'coursesync.yaml', files: { 'coursesync.yaml': garbage + '\n' }, file: 'coursesync.yaml', line: 'some' };
  return { name: 'front-matter', files: { 'p/s/02-bad.md': lessonWith(['name: Bad', garbage]) }, file: 'p/s/02-bad.md', line: 'some' };
};

const WRONG_FIELDS: Array<[string, string]> = [
  ['name', '[a, b]'],
  ['name', '{x: 1}'],
  ['name', 'null'],
  ['name', '12'],
  ['name', 'true'],
  ['name', '"   "'],
  ['drip_delay', '"ten"'],
  ['drip_delay', '-1'],
  ['drip_delay', '1.5'],
  ['drip_delay', '99999'],
  ['drip_delay', '.nan'],
  ['is_published', '"yes"'],
  ['is_published', '1'],
  ['is_progression_locked', '[true]'],
  ['lesson_type', 'podcast'],
  ['lesson_type', '7'],
  ['aliases', 'old-key'],
  ['aliases', '[1, 2]'],
  ['video', '"x"'],
  ['video', '{host_a: [1]}'],
  ['content_format', 'rtf'],
  ['description', '[a]'],
  ['embed_code', '{a: b}'],
  ['key', '{a: b}'],
  ['copied_from', '[x]'],
  ['nmae', 'Typo'],
];

const wrongTypes: Make = (rng) => {
  const where = rng.int(0, 5);
  if (where === 0) {
    const v = rng.pick(['[1]', '{a: b}', 'null', '""', '[]']);
    return { name: `program id ${v}`, files: { [PROGRAM]: `name: Intro\nid: ${v}\n` }, file: PROGRAM, line: 2 };
  }
  if (where === 1) {
    const v = rng.pick(['id: [x]', 'id: {a: 1}', 'lessons: 5', 'lessons: [[ok]]', 'name: [x]', 'id: sec_start\nname: Both']);
    return { name: `section ${v}`, files: { [SECTION]: `${v}\n` }, file: SECTION, line: 'some' };
  }
  if (where === 2) {
    const v = rng.pick(['school: 5', 'school: {base_url: [1]}', 'apply: {concurrency: "x"}', 'apply: {concurrency: -3}', 'removed_lessons: burn', 'unknown_key: 1']);
    return { name: `config ${v}`, files: { 'coursesync.yaml': `${v}\n` }, file: 'coursesync.yaml', line: 1 };
  }
  // A lesson: the wrong field sits on line 2 + k of the file.
  const [field, value] = rng.pick(WRONG_FIELDS);
  const before = rng.int(0, 2);
  const lines = ['name: Fine', 'drip_delay: 0', 'is_published: true'].slice(0, before);
  if (field === 'name') lines.splice(0, lines.length, ...lines.filter((l) => !l.startsWith('name')));
  else if (!lines.some((l) => l.startsWith('name'))) lines.unshift('name: Fine');
  const filtered = lines.filter((l) => !l.startsWith(field + ':'));
  const line = 2 + filtered.length;
  return { name: `${field}: ${value}`, files: { 'p/s/02-bad.md': lessonWith([...filtered, `${field}: ${value}`]) }, file: 'p/s/02-bad.md', line };
};

const deepNesting: Make = (rng) => {
  const n = rng.pick([100, 500, 2_000]);
  const style = rng.int(0, 3);
  let value: string;
  if (style === 0) value = '['.repeat(n) + ']'.repeat(n);
  else if (style === 1) value = '{a: '.repeat(n) + '1' + '}'.repeat(n);
  else if (style === 2) value = '['.repeat(n); // unclosed as well
  else {
    // Block nesting: one level per line.
    const depth = Math.min(n, 2_000);
    value = '\n' + Array.from({ length: depth }, (_, i) => ' '.repeat(i + 2) + 'a:').join('\n') + ' 1';
  }
  const where = rng.int(0, 2);
  if (where === 0) return { name: `program style ${style} depth ${n}`, files: { [PROGRAM]: `id: prog_intro\nname: ${value}\n` }, file: PROGRAM, line: 'some' };
  if (where === 1) return { name: `section style ${style} depth ${n}`, files: { [SECTION]: `id: sec_start\nlessons: ${value}\n` }, file: SECTION, line: 'some' };
  return { name: `front-matter style ${style} depth ${n}`, files: { 'p/s/02-deep.md': lessonWith(['name: Deep', `description: ${value}`]) }, file: 'p/s/02-deep.md', line: 'some' };
};

/** 20,000 to 100,000 levels of flow nesting (a few seconds of YAML parsing each). */
const veryDeep: Make = (rng) => {
  const n = rng.pick([20_000, 100_000]);
  const value = rng.next() < 0.5 ? '['.repeat(n) + ']'.repeat(n) : '{a: '.repeat(n) + '1' + '}'.repeat(n);
  return { name: `section depth ${n}`, files: { [SECTION]: `id: sec_start\nlessons: ${value}\n` }, file: SECTION, line: 'some' };
};

function billionLaughs(levels: number, width: number): string {
  const lines = ['a0: &a0 "lol"'];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

const aliasBomb: Make = (rng) => {
  const levels = rng.int(3, 12);
  const width = rng.int(5, 12);
  const bomb = billionLaughs(levels, width);
  const where = rng.int(0, 2);
  if (where === 0) return { name: `program ${levels}x${width}`, files: { [PROGRAM]: `id: prog_intro\n${bomb}\n` }, file: PROGRAM, line: 'some' };
  if (where === 1) return { name: `section ${levels}x${width}`, files: { [SECTION]: `id: sec_start\n${bomb}\n` }, file: SECTION, line: 'some' };
  // In a lesson the bomb hides under an allowed key.
  const nested = bomb.split('\n').map((l) => '  ' + l).join('\n');
  return { name: `front-matter ${levels}x${width}`, files: { 'p/s/02-bomb.md': `---\nname: Bomb\ndescription:\n${nested}\n---\nx\n` }, file: 'p/s/02-bomb.md', line: 'some' };
};

const TEN_MB = 10_000_000;

const hugeString: Make = (rng) => {
  const which = rng.int(0, 4);
  const big = 'a'.repeat(TEN_MB);
  if (which === 0) return { name: '10 MB name', files: { 'p/s/02-huge.md': lessonWith([`name: ${big}`]) }, file: 'p/s/02-huge.md', line: 2, huge: true };
  if (which === 1) return { name: '10 MB body', files: { 'p/s/02-huge.md': lessonWith(['name: Huge'], big + '\n') }, file: 'p/s/02-huge.md', huge: true };
  if (which === 2) return { name: '10 MB description', files: { 'p/s/02-huge.md': lessonWith(['name: Huge', `description: ${big}`]) }, file: 'p/s/02-huge.md', line: 3, huge: true };
  if (which === 3) return { name: '10 MB section id', files: { [SECTION]: `id: ${big}\n` }, file: SECTION, line: 1, huge: true };
  return { name: 'over 10 MiB', files: { 'p/s/02-huge.md': lessonWith(['name: Huge'], 'b'.repeat(11 * 1024 * 1024)) }, file: 'p/s/02-huge.md', huge: true };
};

const INVALID_UTF8 = [[0x80], [0xc0, 0x20], [0xff], [0xfe, 0xff], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0xc3]];

/** Insert `bytes` into the text of `target` at a random line start; the line it lands on. */
function spliceAtLine(rng: Rng, text: string, bytes: Buffer): { data: Buffer; line: number } {
  const lines = text.split('\n');
  const line = rng.int(1, Math.max(1, lines.length - 1));
  const before = lines.slice(0, line - 1).join('\n') + (line > 1 ? '\n' : '');
  const rest = text.slice(before.length);
  const col = rng.int(0, Math.max(0, (lines[line - 1] ?? '').length));
  return { data: Buffer.concat([Buffer.from(before + rest.slice(0, col)), bytes, Buffer.from(rest.slice(col))]), line };
}

function targetText(rng: Rng): [string, string] {
  return rng.pick([
    [PROGRAM, 'id: prog_intro\nname: Intro\n'],
    [SECTION, 'id: sec_start\nlessons: [ok]\n'],
    [LESSON, '---\nname: OK\ndrip_delay: 1\n---\n# Title\n\nHello there.\n'],
  ] as Array<[string, string]>);
}

const invalidUtf8: Make = (rng) => {
  const [file, text] = targetText(rng);
  const { data, line } = spliceAtLine(rng, text, Buffer.from(rng.pick(INVALID_UTF8)));
  return { name: `${file} line ${line}`, files: { [file]: data }, file, line };
};

const nulBytes: Make = (rng) => {
  const [file, text] = targetText(rng);
  const { data, line } = spliceAtLine(rng, text, Buffer.from('\0'.repeat(rng.int(1, 3))));
  return { name: `${file} line ${line}`, files: { [file]: data }, file, line };
};

const binaryMd: Make = (rng) => {
  const header = rng.pick([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), // PNG
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]), // JPEG
    Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01]), // ELF
    Buffer.from([0x50, 0x4b, 0x03, 0x04]), // zip
  ]);
  const data = Buffer.concat([header, rng.bytes(rng.int(16, 4096)), Buffer.from([0])]);
  return { name: `header ${header.subarray(0, 4).toString('hex')}`, files: { 'p/s/02-image.md': data }, file: 'p/s/02-image.md' };
};

const symlinkLoop: Make = (rng) => {
  const which = rng.int(0, 3);
  if (which === 0) return { name: 'self', files: { 'p/s/02-self.md': { symlink: '02-self.md' } }, file: 'p/s/02-self.md' };
  if (which === 1) return { name: 'pair', files: { 'p/s/02-a.md': { symlink: '03-b.md' }, 'p/s/03-b.md': { symlink: '02-a.md' } }, file: 'p/s/02-a.md' };
  if (which === 2) return { name: 'yaml self', files: { [SECTION]: { symlink: 'section.yaml' } }, file: SECTION };
  return { name: 'folder to its parent', files: { 'p/s/again': { symlink: '..' } }, file: 'p/s/again' };
};

const symlinkOutside: Make = (rng) => {
  const which = rng.int(0, 3);
  if (which === 0) return { name: 'lesson absolute', files: { 'p/s/02-out.md': { symlink: `${OUTSIDE}/lesson.md` } }, file: 'p/s/02-out.md' };
  if (which === 1) return { name: 'lesson relative', files: { 'p/s/02-out.md': { symlink: `../../../outside-${rng.int(0, 9)}/lesson.md` } }, file: 'p/s/02-out.md' };
  if (which === 2) return { name: 'section.yaml', files: { [SECTION]: { symlink: `${OUTSIDE}/section.yaml` } }, file: SECTION };
  return { name: 'section folder', files: { 'p/t': { symlink: OUTSIDE } }, file: 'p/t' };
};

const pathSeparatorKeys: Make = (rng) => {
  const evil = rng.pick(['../../etc/passwd', 'a/b', 'a\\b', '/abs', '..', './x', 'sec/../../x', 'C:\\x', 'a/../b']);
  const which = rng.int(0, 4);
  if (which === 0) return { name: `key ${evil}`, files: { 'p/s/02-k.md': lessonWith(['name: K', `key: '${evil}'`]) }, file: 'p/s/02-k.md', line: 3 };
  if (which === 1) return { name: `alias ${evil}`, files: { 'p/s/02-k.md': lessonWith(['name: K', `aliases: ['${evil}']`]) }, file: 'p/s/02-k.md', line: 3 };
  if (which === 2) return { name: `lessons list ${evil}`, files: { [SECTION]: `id: sec_start\nlessons: [ok, '${evil}']\n` }, file: SECTION, line: 2 };
  if (which === 3) return { name: `front-matter mapping key ${evil}`, files: { 'p/s/02-k.md': lessonWith(['name: K', `'${evil}': 1`]) }, file: 'p/s/02-k.md', line: 3 };
  // Names of characters a key may hold that still give none; a name with others (`a\\b`, `a:b`,
  // `%2e%2e`) gives its words, which hold no separator (keys-and-order.test.ts).
  const fileName = rng.pick(['02-..md', '02--x.md', '02-.x.md', '02-_x.md', '02-...md']);
  return { name: `file name ${fileName}`, files: { [`p/s/${fileName}`]: lessonWith(['name: K']) }, file: `p/s/${fileName}` };
};

const duplicateKeys: Make = (rng) => {
  const which = rng.int(0, 4);
  if (which === 0) return { name: 'front-matter name twice', files: { 'p/s/02-d.md': lessonWith(['name: A', 'drip_delay: 1', 'name: B']) }, file: 'p/s/02-d.md', line: 4 };
  if (which === 1) return { name: 'program id twice', files: { [PROGRAM]: 'id: prog_intro\nid: prog_advanced\n' }, file: PROGRAM, line: 2 };
  if (which === 2) return { name: 'section id twice', files: { [SECTION]: 'id: sec_start\nid: sec_types\n' }, file: SECTION, line: 2 };
  if (which === 3) return { name: 'nested video key twice', files: { 'p/s/02-d.md': lessonWith(['name: A', 'video:', '  host_a: abc', '  host_a: def']) }, file: 'p/s/02-d.md', line: 5 };
  // Two files with one lesson key (the second names the first's key).
  return { name: 'lesson key twice in the repo', files: { 'p/s/02-d.md': lessonWith(['name: Dup', 'key: ok']) }, file: 'p/s/02-d.md' };
};

const BOM = '\uFEFF';

const bomAndCrlf: Make = (rng) => {
  const bom = rng.next() < 0.7;
  const eol = rng.pick(['\r\n', '\r\n', '\r', '\n']);
  const which = rng.int(0, 3);
  const mk = (lines: string[]) => (bom ? BOM : '') + lines.join(eol) + eol;
  const label = `${bom ? 'BOM' : 'no BOM'} ${JSON.stringify(eol)}`;
  if (which === 0) return { name: `lesson ${label}`, files: { 'p/s/02-c.md': mk(['---', 'name: C', 'drip_delay: 1', 'lesson_type: podcast', '---', 'Body']) }, file: 'p/s/02-c.md', line: 4 };
  if (which === 1) return { name: `program ${label}`, files: { [PROGRAM]: mk(['name: Intro', '# comment', 'id: [x]']) }, file: PROGRAM, line: 3 };
  if (which === 2) return { name: `lesson body ${label}`, files: { 'p/s/02-c.md': mk(['---', 'name: C', '---', 'one', '', 'two', '', `<${rng.oddCase('script')}>x</script>`]) }, file: 'p/s/02-c.md', line: 8 };
  // A second BOM is content, not a marker: the front-matter is not at the start any more.
  return { name: `double BOM ${label}`, files: { 'p/s/02-c.md': BOM + BOM + ['---', 'name: C', '---', 'x'].join(eol) }, file: 'p/s/02-c.md' };
};

const emptyFiles: Make = (rng) => {
  const text = rng.pick(['', '', ' ', '\n\n', '\t\n', BOM, '# only a comment\n']);
  const which = rng.int(0, 4);
  if (which === 0) return { name: `program ${JSON.stringify(text)}`, files: { [PROGRAM]: text }, file: PROGRAM };
  if (which === 1) return { name: `section ${JSON.stringify(text)}`, files: { [SECTION]: text }, file: SECTION };
  // A heading alone is a lesson (named by it): only the empty texts are empty lessons.
  if (which === 2) return { name: `lesson ${JSON.stringify(text)}`, files: { 'p/s/02-e.md': text.startsWith('#') ? '' : text }, file: 'p/s/02-e.md' };
  if (which === 3) return { name: 'empty front-matter', files: { 'p/s/02-e.md': '---\n---\nBody\n' }, file: 'p/s/02-e.md' };
  return { name: 'unclosed front-matter', files: { 'p/s/02-e.md': '---\nname: E\nBody\n' }, file: 'p/s/02-e.md' };
};

const FORBIDDEN = ['script', 'iframe', 'object', 'embed'];

const forbiddenHtml: Make = (rng) => {
  const tag = rng.oddCase(rng.pick(FORBIDDEN));
  const attachment = `<${rng.oddCase('action-text-attachment')} ${rng.oddCase('sgid')}="BAh7CEkiCGdpZAY6BkVU">`;
  const element = rng.next() < 0.2 ? attachment : `<${tag} src="x">${tag === 'embed' ? '' : `</${tag}>`}`;
  const pad = rng.int(0, 4);
  const head = ['---', 'name: H', '---', ...Array.from({ length: pad }, (_, i) => `Paragraph ${i}.\n`.trimEnd())];
  // Lines so far: the element goes on line head.length + k.
  const which = rng.int(0, 6);
  const at = (lines: string[], offset: number) => ({ text: [...head, ...lines].join('\n') + '\n', line: head.length + offset });
  let built: { text: string; line: number };
  let ctx: string;
  if (which === 0) [built, ctx] = [at(['', element], 2), 'paragraph'];
  else if (which === 1) [built, ctx] = [at(['', '<div>', element, '</div>'], 3), 'raw HTML block'];
  else if (which === 2) [built, ctx] = [at(['', '<details><summary>More</summary>', '', `Text ${element} more`, '</details>'], 4), 'details'];
  else if (which === 3) [built, ctx] = [at(['', '| a | b |', '|---|---|', `| x | ${element} |`], 4), 'table cell'];
  else if (which === 4) [built, ctx] = [at(['', '```html', '<script>fine in code</script>', '```', '', element], 6), 'after a code block'];
  else if (which === 5) [built, ctx] = [at(['', `<${rng.oddCase('div')}><${rng.oddCase('span')}>`, `  ${element}`, `</span></div>`], 3), 'nested raw HTML'];
  else {
    const text = ['---', 'name: H', 'content_format: html', '---', '<p>Hi</p>', element].join('\n') + '\n';
    [built, ctx] = [{ text, line: 6 }, 'html body'];
  }
  return { name: `${ctx}: ${element.slice(0, 40)}`, files: { 'p/s/02-h.md': built.text }, file: 'p/s/02-h.md', line: built.line };
};

/** Every kind, in the order the generator cycles through them. */
export const KINDS: ReadonlyArray<[string, Make]> = [
  ['yaml-garbage', yamlGarbage],
  ['wrong-types', wrongTypes],
  ['deep-nesting', deepNesting],
  ['alias-bomb', aliasBomb],
  ['invalid-utf8', invalidUtf8],
  ['nul-bytes', nulBytes],
  ['binary-md', binaryMd],
  ['symlink-loop', symlinkLoop],
  ['symlink-outside', symlinkOutside],
  ['path-separator-keys', pathSeparatorKeys],
  ['duplicate-keys', duplicateKeys],
  ['bom-crlf', bomAndCrlf],
  ['empty-files', emptyFiles],
  ['forbidden-html', forbiddenHtml],
];

/**
 * Hostile repo number `index`: kinds in turn, except that in every `hugeEvery` repos one is of
 * the 10 MB kind and one is nested 20,000+ levels deep (doing those a thousand times would make
 * the run slow, not harsher).
 */
export function hostileRepo(rng: Rng, index: number, hugeEvery = 100): HostileRepo {
  const slot = index % hugeEvery;
  const [kind, make]: [string, Make] =
    slot === hugeEvery - 1 ? ['huge-string', hugeString] : slot === Math.floor(hugeEvery / 2) - 1 ? ['very-deep-nesting', veryDeep] : KINDS[index % KINDS.length]!;
  const made = make(rng);
  const files = base();
  for (const [path, entry] of Object.entries(made.files)) if (entry !== undefined) files[path] = entry;
  const repo: HostileRepo = { kind, name: `${kind} #${index}: ${made.name}`, files, file: made.file };
  if (made.line !== undefined) repo.line = made.line;
  if (made.huge) repo.huge = true;
  return repo;
}

/** Write a repo into `root`; symlinks to OUTSIDE point into `outside`. */
export async function writeHostileRepo(repo: HostileRepo, root: string, outside: string): Promise<void> {
  for (const [path, entry] of Object.entries(repo.files)) {
    const abs = join(root, path);
    await mkdir(dirname(abs), { recursive: true });
    if (typeof entry === 'object' && !Buffer.isBuffer(entry)) await symlink(entry.symlink.replace(OUTSIDE, outside), abs);
    else await writeFile(abs, entry);
  }
}
