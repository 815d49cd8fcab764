/**
 * Assets come only from files a lesson may show, through the built CLI: a symlink (to a file
 * or a folder) into .git, .env, .coursesync, node_modules or an `ignore:`d path is refused by
 * `validate` at the reference's path:line:col, and `assets --out` writes none of its bytes. A
 * link to a plain file of the repo still publishes, and a file over the size limit is refused.
 */
import { mkdir, readdir, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { lesson, removeRepos, runCli, writeRepo } from './helpers.js';

const TOKEN = 'ghs_Zq8RkT3vLmN4pW7xY2aB5cD9eF1gH6jK0sU';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f0a8a10000000049454e44ae426082', 'hex');
const SECTION = 'web/intro/01-basics';

let repo: string;

const body = (ref: string) => `# Setting up

Before the first exercise, check that your editor shows the course logo below. If it does
not, reload the page: the image is served by the course's static host.

${ref}

## What you need

- Node 20 or later
- a terminal you are comfortable with
- about twenty minutes

| Tool | Why |
|---|---|
| git | to fetch the exercises |
| node | to run them |

Next, we install the tools.
`;

beforeEach(async () => {
  repo = await writeRepo({
    'coursesync.yaml': 'assets:\n  base_url: https://cdn.example.com/course/\nignore:\n  - drafts/\n',
    '.git/config': `[remote "origin"]\n\turl = https://x-access-token:${TOKEN}@github.com/acme/course.git\n`,
    '.env': `COURSESYNC_TOKEN=${TOKEN}\n`,
    '.coursesync/state.json': `{"token_was_here":"${TOKEN}"}\n`,
    'drafts/solutions.txt': `answers and ${TOKEN}\n`,
    'node_modules/pkg/secret.txt': `${TOKEN}\n`,
    'web/intro/program.yaml': 'id: prog_web\nname: Web basics\n',
    [`${SECTION}/section.yaml`]: 'id: sec_basics\n',
  });
  await mkdir(path.join(repo, SECTION, 'img'), { recursive: true });
  await mkdir(path.join(repo, 'shared'), { recursive: true });
  await writeFile(path.join(repo, 'shared/logo.png'), PNG);
});
afterAll(removeRepos);

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function writeLesson(ref: string): Promise<void> {
  await writeFile(path.join(repo, SECTION, '01-setup.md'), lesson('name: Setting up\nlesson_type: text', body(ref)));
}

describe('assets come only from files a lesson may show', () => {
  const cases: Array<[string, string, string, string]> = [
    ['a file link into .git', 'img/logo.png', '../../../../.git/config', '![logo](img/logo.png)'],
    ['a file link to .env', 'img/logo.png', '../../../../.env', '![logo](img/logo.png)'],
    ['a file link into .coursesync', 'img/logo.png', '../../../../.coursesync/state.json', '![logo](img/logo.png)'],
    ['a file link into node_modules', 'img/logo.png', '../../../../node_modules/pkg/secret.txt', '![logo](img/logo.png)'],
    ['a file link to an ignored file', 'img/logo.png', '../../../../drafts/solutions.txt', '![logo](img/logo.png)'],
    ['a folder link to .git', 'gitdir', '../../../.git', 'See [the config](gitdir/config).'],
    ['a folder link to an ignored folder', 'extra', '../../../drafts', 'See [the answers](extra/solutions.txt).'],
  ];

  it.each(cases)('%s: validate names the lesson and line, assets --out copies nothing of it', async (_what, link, target, ref) => {
    await symlink(target, path.join(repo, SECTION, link));
    await writeLesson(ref);
    const checked = await runCli(['validate', repo]);
    expect(checked.code).toBe(1);
    const column = ref.startsWith('!') ? 1 : ref.indexOf('[') + 1;
    const url = ref.slice(ref.indexOf('(') + 1, ref.indexOf(')'));
    const real = path.posix.normalize(path.posix.join(SECTION, path.posix.dirname(link), target));
    const why = real.startsWith('drafts') ? 'a path `ignore:` leaves out' : 'inside a hidden folder or node_modules';
    expect(checked.stderr).toContain(
      `${SECTION}/01-setup.md:10:${column} error "${url}": ${SECTION}/${link} is a symlink to ${real}${link.includes('.') ? '' : '/'}, ${why}, and is never published [lesson/asset-private]`,
    );
    expect(checked.stderr + checked.stdout).not.toContain(TOKEN);

    const out = path.join(repo, '..', `${path.basename(repo)}-site`);
    const written = await runCli(['assets', repo, '--out', out]);
    expect(written.code).not.toBe(0);
    expect(written.stderr).toContain('lesson/asset-private');
    for (const file of await filesUnder(out)) expect(await readFile(file, 'utf8')).not.toContain(TOKEN);
  });

  it('a link to a plain file of the repo still publishes its bytes', async () => {
    await symlink('../../../../shared/logo.png', path.join(repo, SECTION, 'img/logo.png'));
    await writeLesson('![logo](img/logo.png)');
    const checked = await runCli(['validate', repo]);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const out = path.join(repo, '..', `${path.basename(repo)}-site`);
    const written = await runCli(['assets', repo, '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    const files = await filesUnder(out);
    expect(files.map((f) => path.basename(f))).toEqual([expect.stringMatching(/^logo\.[0-9a-f]{16}\.png$/)]);
    expect(await readFile(files[0]!)).toEqual(PNG);
  });

  it('a lesson file that is a link into .git is reported, never read as a lesson', async () => {
    await writeLesson('![logo](img/logo.png)');
    await writeFile(path.join(repo, SECTION, 'img/logo.png'), PNG);
    await symlink('../../../.git/config', path.join(repo, SECTION, '02-notes.md'));
    const checked = await runCli(['validate', repo]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`${SECTION}/02-notes.md error symlink points to .git/config, inside a hidden folder or node_modules [repo/symlink-private]`);
    expect(checked.stderr + checked.stdout).not.toContain(TOKEN);
  });

  it('a file over the size limit is refused at the reference, without reading it', async () => {
    const video = path.join(repo, SECTION, 'img/lecture.mp4');
    await writeFile(video, '');
    await truncate(video, 100 * 1024 * 1024 + 1);
    await writeLesson('[the lecture](img/lecture.mp4)');
    const checked = await runCli(['validate', repo]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`${SECTION}/01-setup.md:10:1 error "img/lecture.mp4": ${SECTION}/img/lecture.mp4 is 100 MB, over the 100 MB a published file may have [lesson/asset-too-large]`);
  });
});
