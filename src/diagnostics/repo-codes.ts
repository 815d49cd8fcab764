/**
 * The catalogue of repo diagnostics: every stable code coursesync reports about files, with its
 * severity and the default hint (what to do next). One place, so docs and tests can list them.
 */
import type { Diagnostic, Severity } from './diagnostic.js';
import { MAX_CONTENT_LENGTH } from '../school-api/school-limits.js';

interface Entry {
  severity: Severity;
  hint: string;
}

const e = (hint: string): Entry => ({ severity: 'error', hint });
const w = (hint: string): Entry => ({ severity: 'warning', hint });

const WEBHOOKS_SCHEMA = 'see schema/webhooks.schema.json and docs/school-api.md#webhooks (docs/school-commands.md#webhooks-as-code)';

export const CODES = {
  // Reading files (reported by source/).
  'file/unreadable': e('check the permissions of the file'),
  'file/too-large': e('split the lesson, or keep large media out of the repo'),
  'file/not-utf8': e('save the file as UTF-8'),
  'file/binary': e('lesson and YAML files must be plain text'),
  'file/name-not-utf8': e('rename it with a UTF-8 name: git, CI logs and the school all expect one'),
  'file/control-char-name': e('rename it: a name with a newline or another control character would break logs, CI annotations and terminals'),
  'file/empty': e('write the YAML (or the lesson front-matter and body) into the file, or delete it'),
  'repo/symlink-outside': e('copy the file into the repo: coursesync reads only what the repo holds'),
  'repo/broken-symlink': e('fix or remove the link'),
  'repo/symlink-private': e('replace the link with a copy of what the lesson should hold: coursesync never reads hidden folders or node_modules'),
  'config/ignore-unmatched': w('fix the pattern (.gitignore syntax, from the repo root) or remove it: it leaves out no file'),
  // YAML.
  'yaml/syntax': e('fix the YAML at the caret; quoting the value ("…") fixes most mistakes in a value'),
  'yaml/duplicate-key': e('each key may appear once in a mapping: remove or rename one of them'),
  'yaml/unknown-tag': e('remove the tag: coursesync reads plain YAML (strings, numbers, booleans, lists, maps)'),
  'yaml/alias-limit': e('write the values out instead of repeating aliases'),
  'yaml/unresolved-alias': e('quote a value that starts with *'),
  'yaml/not-a-mapping': e('the file must be a YAML mapping of `key: value` lines'),
  'toml/syntax': e('fix the TOML at the caret: `key = value` lines, strings in quotes ("…"), or write the front-matter as YAML between --- lines'),
  // Repo layout.
  // An error: a plan of nothing would say "No changes" and pass CI in a wrong or empty folder.
  'repo/no-programs': e('add a folder holding program.yaml with `id: <program id>`, or run coursesync in the course repo'),
  'repo/nested-program': e('program folders cannot be nested: move this folder next to the other program'),
  'repo/section-outside-program': e('a section folder must be a direct child of a program folder (one holding program.yaml)'),
  'repo/nested-lesson-folder': w('lessons sit directly in a section folder (a code folder\'s README is fine where it is); to publish this file, move it up, or make its folder a section of its own (section.yaml, directly in the program folder)'),
  'repo/stray-markdown': w('lesson files belong in a section folder; this file is ignored'),
  'repo/duplicate-key': e('give one of the lessons a different `key:` (or rename its file); keys are unique in the whole repo'),
  'repo/duplicate-program': e('each program folder must have its own program id'),
  'repo/duplicate-section': e('each section folder must name a different section'),
  // A book's SUMMARY.md (program.yaml `toc:`).
  'toc/not-found': e('write the path of the book\'s SUMMARY.md relative to the folder of program.yaml (e.g. `toc: SUMMARY.md`)'),
  'toc/bad-line': e('write each chapter as `- [Title](file.md)` (nested pages indented under it), an unnumbered chapter as `[Title](file.md)`, a part as `# Title`'),
  'toc/bad-target': e('link a Markdown file inside the book\'s folder, relative to SUMMARY.md'),
  'toc/duplicate-file': e('list each file once: remove one of the lines'),
  'toc/missing-file': e('fix the path (relative to SUMMARY.md), or add the file'),
  'toc/unknown-chapter': e('map a chapter of SUMMARY.md (top-level or unnumbered) by its title exactly as written there, or by its own page as SUMMARY.md links it'),
  'toc/section-yaml': e('a book takes its sections from SUMMARY.md: remove this section.yaml, or remove `toc:` from program.yaml'),
  'toc/sections-without-toc': e('add `toc: SUMMARY.md` for a book, or remove `sections:` (a section folder names its section in section.yaml)'),
  'toc/unlisted': w('list the file in the table of contents that program.yaml `toc:` names (SUMMARY.md in an mdBook) to publish it; files it does not list are not lessons'),
  'section/missing-yaml': e('add section.yaml with `id: <section id>` or `name: <section name>` to this folder'),
  // program.yaml, section.yaml, coursesync.yaml and front-matter fields.
  'program/unknown-key': e('program.yaml allows the keys id and name'),
  'program/missing-field': e('program.yaml needs `id: <program id>`'),
  'program/invalid-field': e('see schema/program.schema.json'),
  'program/site-path-not-found': e('write the path of the page\'s Markdown file, or of the folder the site serves at that address, relative to the folder of program.yaml (e.g. `0/en/part0a.md`, `_2020/`)'),
  'section/unknown-key': e('section.yaml allows the keys id, name and lessons'),
  'section/missing-field': e('see schema/section.schema.json'),
  'section/invalid-field': e('see schema/section.schema.json'),
  // Checked against the school (GET /sections) by plan with a token and by apply, before any write.
  'section/not-found': e('write the id of a section of this folder\'s program (`coursesync sections list <program folder>` lists them)'),
  'section/other-program': e('a section folder creates lessons in its program\'s sections only: use a section of this program, or move the folder into the program the section belongs to'),
  'program/not-found': e('check the program id, and that the API key has access to that program (a key may be limited to some programs)'),
  'section/id-or-name': e('give the section `id:`, or its exact `name:`, but not both'),
  'section/lessons-list-missing': e('list every lesson key of the folder in `lessons:`, or remove `lessons:` to order by file name'),
  'section/lessons-list-duplicate': e('list each lesson key once'),
  'section/lessons-list-unknown': e('list only the keys of lesson files in this folder'),
  'config/unknown-key': e('see schema/coursesync.schema.json'),
  'config/missing-field': e('see schema/coursesync.schema.json'),
  'config/invalid-field': e('see schema/coursesync.schema.json'),
  // webhooks.yaml.
  'webhooks/not-a-list': e('write one `- webhook_url: https://…` item per webhook, each with event_type (and optionally provider and extra_parameters)'),
  'webhooks/unknown-key': e(WEBHOOKS_SCHEMA),
  'webhooks/missing-field': e(WEBHOOKS_SCHEMA),
  'webhooks/invalid-field': e(WEBHOOKS_SCHEMA),
  'webhooks/duplicate': e('remove one of them: the school would deliver each event twice'),
  'lesson/no-name': e('start the body with a heading (`# Lesson name`), or give `name:` in a front-matter block (a line ---, `name: <lesson name>`, a line ---)'),
  'lesson/front-matter-not-first': e('start the file with the --- line itself: delete what comes before it (an extra byte-order mark, spaces, blank lines)'),
  'lesson/front-matter-unclosed': e('close the front-matter with a line holding only --- (only +++ for TOML front-matter)'),
  'lesson/unknown-key': e('see the front-matter table in docs/course-repo.md or schema/lesson.schema.json'),
  'lesson/missing-field': e('add the field to the front-matter'),
  'lesson/invalid-field': e('see the front-matter table in docs/course-repo.md or schema/lesson.schema.json'),
  'lesson/invalid-key': e('set `key:` in the front-matter, or rename the file to letters, digits, ".", "_" and "-"'),
  'lesson/video-not-allowed': e('remove `video:`, or set `lesson_type: video`'),
  'lesson/video-sources': e('give exactly one of host_a, host_b, host_c, host_d or embed_code under `video:`'),
  'lesson/video-url': e('give the video id, or a watch/share/embed URL of that host (see docs/school-api.md#lesson-input-fields)'),
  'lesson/embed-code-not-allowed': e('remove `embed_code:`, or set `lesson_type: embed`'),
  'lesson/forbidden-html': e('the school rejects script, iframe, object and embed tags and signed attachments: remove it, or use an embed lesson (embed_code) or video.embed_code'),
  'lesson/event-handler': w('remove the on* attribute: scripts in lesson HTML are not run by the school'),
  'lesson/javascript-url': w('use an http(s) link'),
  'lesson/body-too-long': e(`split the lesson: the school accepts at most ${MAX_CONTENT_LENGTH} characters of rendered HTML`),
  'lesson/description-too-long': e(`shorten the description: the school accepts at most ${MAX_CONTENT_LENGTH} characters of rendered HTML`),
  'lesson/nested-too-deep': e('flatten the nesting: no lesson needs dozens of block quotes, list items or HTML elements inside one another'),
  'lesson/render-budget': e('simplify the Markdown at fault (or split the lesson); it must render within the budget of one lesson'),
  // References to repo files, other lessons and headings (resolve-refs.ts).
  'lesson/asset-private': e('reference a file the lesson may show: copy it into the repo as a plain file (not a link into a hidden folder, node_modules or an ignored path), or remove the reference'),
  'lesson/asset-too-large': e('host large media elsewhere (a video or file host) and link to its URL, or make the file smaller'),
  'lesson/missing-file': e('fix the path (relative to the lesson file, or /… from the repo root), or add the file'),
  'lesson/missing-anchor': e('link to the heading\'s GitHub slug (lower case, spaces as -), or add an anchor with that id'),
  'lesson/link-not-lesson': e('link a lesson instead, or make the file a lesson (a section\'s Markdown file, or listed in SUMMARY.md), or link its page on the web (https://…; `repo_url:` in coursesync.yaml sends every such link to the repo\'s page of the file)'),
  'lesson/folder-without-lesson': e('link a lesson file of the folder, or add a README.md lesson to it, or set `repo_url:` in coursesync.yaml (the repo\'s folder URL on GitHub, say) to link the folder\'s page there'),
  'lesson/ref-outside-repo': e('copy the file into the repo: lessons can reference only what the repo holds'),
  'lesson/needs-assets-url': e('set assets.base_url in coursesync.yaml to where `coursesync assets --out <folder>` is served (docs/course-repo.md#images-files-and-links)'),
  'lesson/unknown-element': w('put it in backticks (`Box<T>`), or write its < as &lt; (Box&lt;T>), so learners see it'),
  'lesson/link-to-draft': w('publish the linked lesson (`is_published: true`), or link to it once it is published: learners cannot open a draft'),
  'lesson/needs-lesson-url': e('set school.lesson_url in coursesync.yaml, e.g. https://academy.example.com/products/{program_id}/lessons/{lesson_id} (docs/course-repo.md#images-files-and-links)'),
  // Includes and variables (expand-includes.ts, substitute-vars.ts).
  'include/missing-file': e('fix the path (relative to the file holding the {{#include}}), or add the file'),
  'include/outside-repo': e('copy the file into the repo: includes read only what the repo holds'),
  'include/missing-anchor': e('add the lines `ANCHOR: name` and `ANCHOR_END: name` (in comments) around the part to include, or fix the name'),
  'include/missing-lines': e('fix the line range: it must lie within the file (lines count from 1)'),
  'include/cycle': e('remove one of the includes: a file cannot include itself, directly or through others'),
  'include/too-many': e('include each file fewer times: partials that include each other many times over multiply'),
  'include/unused-partial': w('include it from a lesson with {{#include path}}, or rename it without the leading _ (or move it out of _partials/) to make it a lesson'),
  'include/unsupported': w('remove it, or write what it stands for into the lesson'),
  'vars/undefined': e('define the variable under `vars:` in coursesync.yaml or program.yaml, or write \\{{ to keep the text as is'),
} as const satisfies Record<string, Entry>;

export type Code = keyof typeof CODES;

/** A place in a file (1-based), when there is one. */
export interface Place {
  line: number;
  column: number;
}

/** Make a diagnostic from the catalogue; `hint` overrides the catalogue's default. */
export function diag(code: Code, file: string, place: Place | undefined, message: string, hint?: string): Diagnostic {
  const entry: Entry = CODES[code];
  const d: Diagnostic = { file, code, severity: entry.severity, message, hint: hint ?? entry.hint };
  if (place) {
    d.line = place.line;
    d.column = place.column;
  }
  return d;
}
