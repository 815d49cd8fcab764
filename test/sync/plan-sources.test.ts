/**
 * Plans in the author's language on real git repositories: a course is applied to the emulator
 * at one commit, its lessons (lists, tables, code, images, links, a video) are edited in the
 * next, and the plan shows each lesson file's Markdown diff read from git, a new lesson's first
 * lines, and fields by front-matter key. A shallow clone without the applied commit, and a folder
 * outside git, fall back to a field-level summary that says why in one line.
 *
 * The plan's `source` blob ids are what the state records at apply (`blob`) and the file's id
 * now; this test sets them from the applied commit, as the state format does.
 */
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { buildPlan } from '../../src/sync/build-plan.js';
import { readPlanSources } from '../../src/sync/plan-sources.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';
import { pushPlan } from '../cli/plan-helpers.js';
import { lesson, writeRepo } from '../e2e/helpers.js';

const run = promisify(execFile);
const LOGO = join(import.meta.dirname, '../fixtures/repos/odin/foundations/01-intro/images/logo.png');

const LISTS_1 = lesson(
  'name: Lists and links\nlesson_type: video\nvideo:\n  host_a: dQw4w9WgXcQ',
  '# Lists\n\nWhat you need:\n\n- a terminal\n- an editor, e.g. [VS Code](https://code.visualstudio.com)\n\n1. clone\n2. run\n',
);
const LISTS_2 = lesson(
  'name: Lists and links\nlesson_type: video\nvideo:\n  host_a: https://youtu.be/9bZkp7q19f0',
  '# Lists\n\nWhat you need:\n\n- a terminal\n- an editor, e.g. [VS Code](https://code.visualstudio.com)\n- a [GitHub account](https://github.com/signup)\n\n1. clone\n2. run\n',
);
const TABLES_1 = lesson(
  'name: Tables and code\nlesson_type: text\ndescription: The **keys** of a lesson',
  '# Keys\n\n| key | meaning |\n|---|---|\n| `name` | shown to learners |\n\n```yaml\nname: Intro\n```\n\n![The logo](img/logo.png)\n',
);
const TABLES_2 = TABLES_1.replace('| `name` | shown to learners |\n', '| `name` | shown to learners |\n| `lesson_type` | video, text, pdf, embed or audio |\n');
const CODE = lesson(
  'name: Code blocks\nlesson_type: text\nis_published: false',
  '# Code\n\n```ts\nconst answer: number = 42;\nconsole.log(answer);\n```\n\nSee [the tables](2-tables.md).\n\n<details><summary>Raw HTML</summary>kept as is</details>\n',
);

/** Only its front-matter changes: no body to diff, the file diff still shows the edit. */
const VIDEO_1 = lesson('name: A video\nlesson_type: video\nvideo:\n  host_b: "76979871"', 'Watch it, then answer the questions.');

let emu: RunningEmulator;
let root: string;
let env: Record<string, string>;
const GIT_ENV = { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com', GIT_CONFIG_NOSYSTEM: '1' };
const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env: { ...process.env, ...GIT_ENV, HOME: root, GIT_CEILING_DIRECTORIES: root } })).stdout.trim();

/** The course applied at one commit (`applied`), then edited and committed (the pull request). */
let repo: string;
let applied: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url };
  root = await mkdtemp(join(tmpdir(), 'coursesync-plan-sources-'));
  repo = await writeRepo(
    {
      'coursesync.yaml': 'removed_lessons: keep\nschool:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://assets.example.com/course/\n',
      'intro/program.yaml': 'id: prog_intro\n',
      'intro/a/section.yaml': 'id: sec_start\n',
      'intro/a/1-lists.md': LISTS_1,
      'intro/a/2-tables.md': TABLES_1,
      'intro/a/4-video.md': VIDEO_1,
    },
    join(root, 'course'),
  );
  await mkdir(join(repo, 'intro/a/img'));
  await copyFile(LOGO, join(repo, 'intro/a/img/logo.png'));
  await git(repo, 'init', '--quiet', '--initial-branch=main');
  await git(repo, 'add', '.');
  await git(repo, 'commit', '--quiet', '-m', 'The course');
  applied = await git(repo, 'rev-parse', 'HEAD');
  const first = await buildPlan(repo, { env });
  await pushPlan({ dir: repo, plan: first.plan, state: first.state, baseUrl: emu.url, token: SECRET });
  await git(repo, 'add', '.coursesync/state.json');
  await git(repo, 'commit', '--quiet', '-m', 'coursesync: state after apply');
  await writeFile(join(repo, 'intro/a/1-lists.md'), LISTS_2);
  await writeFile(join(repo, 'intro/a/2-tables.md'), TABLES_2);
  await writeFile(join(repo, 'intro/a/3-code.md'), CODE);
  await writeFile(join(repo, 'intro/a/4-video.md'), VIDEO_1.replace('host_b: "76979871"', 'host_b: https://vimeo.com/148751763'));
  await git(repo, 'add', '.');
  await git(repo, 'commit', '--quiet', '-m', 'More on lists, tables and code');
});
afterAll(async () => {
  await emu?.close();
  await rm(root, { recursive: true, force: true });
});

/** The plan of `dir` with each step's `source` as the state records it (blob at the applied commit) and the file's blob now. */
async function planWithSources(dir: string): Promise<Plan> {
  const { plan } = await buildPlan(dir, { env });
  const changes = await Promise.all(
    plan.changes.map(async (c) => {
      if (!isCall(c)) return c;
      const before = c.action === 'create' ? null : await git(repo, 'rev-parse', `${applied}:${c.path}`);
      return { ...c, source: { path: c.path, before, after: await git(dir, 'hash-object', c.path) } };
    }),
  );
  return { ...plan, changes };
}

describe('plans show the lesson files, not HTML', () => {
  it('the old file is in git: each changed lesson is a Markdown diff, a new one its first lines', async () => {
    const plan = await planWithSources(repo);
    const text = renderText(plan, { color: false, sources: await readPlanSources(repo, plan) });
    expect(text).toContain(
      [
        '  ~ intro/a/1-lists.md (' + plan.changes.find((c) => c.key === 'lists')!.lesson_id + ') will be updated in place',
        '      video: host_a: "dQw4w9WgXcQ" → "https://youtu.be/9bZkp7q19f0"',
        '      --- intro/a/1-lists.md (as last applied)',
        '      +++ intro/a/1-lists.md',
        '      @@ -3,5 +3,5 @@',
        '       lesson_type: video',
        '       video:',
        '      -  host_a: dQw4w9WgXcQ',
        '      +  host_a: https://youtu.be/9bZkp7q19f0',
        '       ---',
        '       # Lists',
        '      @@ -11,4 +11,5 @@',
      ].join('\n'),
    );
    expect(text).toContain('      +- a [GitHub account](https://github.com/signup)\n');
    expect(text).toContain('      +| `lesson_type` | video, text, pdf, embed or audio |\n');
    expect(text).toMatch(/ {2}\+ intro\/a\/3-code\.md will be created in sec_start at 3\n {6}name "Code blocks" · text · draft · 2\d\d bytes, 16 lines\n {6}│ ---\n {6}│ name: Code blocks\n/);
    expect(text).toContain('      │ … 8 more lines\n');
    expect(text).toContain(
      [
        '      video: host_b: "76979871" → "https://vimeo.com/148751763"',
        '      --- intro/a/4-video.md (as last applied)',
        '      +++ intro/a/4-video.md',
        '      @@ -3,5 +3,5 @@',
        '       lesson_type: video',
        '       video:',
        '      -  host_b: "76979871"',
        '      +  host_b: https://vimeo.com/148751763',
        '       ---',
        '       Watch it, then answer the questions.',
      ].join('\n'),
    );
    // No rendered HTML and no API field name anywhere.
    expect(text).not.toMatch(/<li>|<table|<tr>|<pre|<img|@@ -1,0|settings_embed/);
  });

  it('the pull-request comment: folder and school in the header, the diffs fenced', async () => {
    const plan = await planWithSources(repo);
    const md = renderMarkdown(plan, { sources: await readPlanSources(repo, plan), folder: 'course' });
    expect(md.startsWith(`### coursesync plan for \`course\` on ${new URL(emu.url).host}\n\n**Plan: 1 to create, 3 to update, 0 unchanged.**`)).toBe(true);
    expect(md).toContain('  - `video: host_a`: "dQw4w9WgXcQ" → "https://youtu.be/9bZkp7q19f0"\n');
    expect(md).toContain('  ````diff\n  --- intro/a/2-tables.md (as last applied)\n  +++ intro/a/2-tables.md\n');
    expect(md).toContain('  ````markdown\n  ---\n  name: Code blocks\n');
    expect(md).not.toContain(SECRET);
    expect(md).not.toMatch(/<li>|<table|settings_embed/);
  });

  it('a shallow clone lacks the applied files: fields by front-matter key, and why in one line', async () => {
    const shallow = join(root, 'shallow');
    await git(root, 'clone', '--quiet', '--depth', '1', `file://${repo}`, shallow);
    const plan = await planWithSources(shallow);
    const text = renderText(plan, { color: false, sources: await readPlanSources(shallow, plan) });
    const lists = text.slice(text.indexOf('~ intro/a/1-lists.md'), text.indexOf('~ intro/a/2-tables.md'));
    expect(lists).toMatch(/video: host_a: "dQw4w9WgXcQ" → "https:\/\/youtu\.be\/9bZkp7q19f0"\n {6}body: changed \((\d+ characters|HTML known by fingerprint) → \d+ characters of HTML\)\n {6}no Markdown diff: the file as last applied \(blob [0-9a-f]{10}\) is not in this clone's history \(a shallow clone\? actions\/checkout needs fetch-depth: 0\) \(--html-diff shows the HTML\)\n/);
    // The new lesson needs no history.
    expect(text).toContain('      │ name: Code blocks\n');
    // --html-diff still shows the HTML.
    expect(renderText(plan, { color: false, htmlDiff: true, sources: await readPlanSources(shallow, plan) })).toMatch(/\+<li>a <a href="https:\/\/github\.com\/signup">GitHub account<\/a><\/li>/);
  });

  it('outside git: the same fallback, saying so', async () => {
    const plain = join(root, 'plain');
    await cp(repo, plain, { recursive: true, filter: (src) => !src.endsWith('/.git') });
    // Its blob ids come from the original repository (git hash-object needs none).
    const plan = await planWithSources(plain);
    const text = renderText(plan, { color: false, sources: await readPlanSources(plain, plan) });
    expect(text).toContain('      no Markdown diff: the course folder is not in a git repository (--html-diff shows the HTML)\n');
    expect(text).not.toContain('--- intro/a/1-lists.md');
  });
});
