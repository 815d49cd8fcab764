/**
 * Keys authors bring from other tools (Hugo, Jekyll, Docusaurus, mkdocs), with what coursesync
 * calls the same thing (PURE). An unknown key found here gets this hint instead of a spelling
 * guess: `title` is not a typo of `name`, it is another tool's word for it.
 */
type Hint = (value: unknown) => string;

const ORDER = 'lessons are ordered by file name (01-intro.md, 02-setup.md) or by `lessons:` in section.yaml: remove it';

const NAME: Hint = (v) => (typeof v === 'string' ? `coursesync calls it "name": name: ${JSON.stringify(v)}` : 'coursesync calls it "name"');
/** A lesson's `title:` can stay as written: `name_from: title` takes it. */
const LESSON_NAME: Hint = (v) => `${NAME(v)}; or, to leave the files as they are, \`lesson_defaults: { name_from: title }\` in coursesync.yaml takes every lesson's title: as its name`;

const LESSON: Record<string, Hint> = {
  title: LESSON_NAME,
  draft: (v) => (v === true ? 'a draft is `is_published: false`' : v === false ? 'lessons are published by default: remove it (or write `is_published: true`)' : 'a draft is `is_published: false`'),
  published: (v) => (typeof v === 'boolean' ? `coursesync calls it "is_published": is_published: ${String(v)}` : 'coursesync calls it "is_published"'),
  type: (v) => (typeof v === 'string' ? `coursesync calls it "lesson_type": lesson_type: ${v}` : 'coursesync calls it "lesson_type"'),
  weight: () => ORDER,
  order: () => ORDER,
  position: () => ORDER,
  sidebar_position: () => ORDER,
  nav_order: () => ORDER,
  id: () => 'the school\'s lesson id lives in .coursesync/state.json; to name the lesson\'s identity in the repo, use `key:`',
  slug: () => 'a lesson\'s identity is its file name, or `key:`',
  summary: () => 'coursesync calls it "description" (Markdown)',
  excerpt: () => 'coursesync calls it "description" (Markdown)',
  locked: () => 'coursesync calls it "is_progression_locked"',
  delay: () => 'coursesync calls it "drip_delay" (days after the section unlocks)',
  youtube: () => 'put the video under `video:`, e.g. `video: { host_a: <id or URL> }`',
  video_url: () => 'put the video under `video:`, e.g. `video: { host_a: <id or URL> }`',
};

const FOLDER: Record<string, Hint> = { title: NAME, weight: () => 'programs and sections keep the order they have in the school', draft: () => 'publication of programs and sections is set in the school, not in the repo' };

const BY_KIND: Readonly<Record<string, Record<string, Hint>>> = { lesson: LESSON, section: FOLDER, program: FOLDER };

/** The hint for another tool's key in a file of `kind` (check-schema.ts FileKind), when coursesync knows it. */
export function foreignKeyHint(kind: string, key: string, value: unknown): string | undefined {
  const table = Object.hasOwn(BY_KIND, kind) ? BY_KIND[kind] : undefined;
  return table && Object.hasOwn(table, key) ? table[key]?.(value) : undefined;
}
