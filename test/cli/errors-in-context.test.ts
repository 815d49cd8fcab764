/**
 * One lesson's mistake is reported where it is, and hides nothing, through the built CLI's
 * `validate`: a front-matter typo in lesson B gives no "missing anchor" in lesson A that links
 * to one of B's headings, and a blank or empty `name` is reported once, with every other error
 * of the file (its broken image and anchor included).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const CONFIG = 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://cdn.example.com/git/\n';

const setup = `# Installing git

Pick the installer for your system.

## Setup

| System | Command |
|---|---|
| Debian | \`sudo apt install git\` |
| macOS | \`brew install git\` |

## Checking the version

Run \`git --version\`: anything from 2.30 on will do.
`;

const intro = `# Welcome

This course teaches git from the first commit to a pull request.

Before anything else, follow [the setup](02-setup.md#setup), then come back here.

![the three areas of git](img/areas.png)
`;

const files = (introFm: string, setupFm: string) => ({
  'coursesync.yaml': CONFIG,
  'git/program.yaml': 'id: prog_git\nname: Git\n',
  'git/01-basics/section.yaml': 'id: sec_basics\n',
  'git/01-basics/01-welcome.md': lesson(introFm, intro),
  'git/01-basics/02-setup.md': lesson(setupFm, setup),
});

const lines = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('  '));

describe('a lesson mistake hides nothing and blames no other lesson', () => {
  it('a front-matter typo in the linked lesson is reported there only, not as a missing anchor in the linking one', async () => {
    const dir = await writeRepo({ ...files('name: Welcome\nlesson_type: text', 'name: Setup\nlesson_typ: text'), 'git/01-basics/img/areas.png': 'png' });
    const r = await runCli(['validate', dir], { NO_COLOR: '1' });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(['git/01-basics/02-setup.md:3:1 error unknown key "lesson_typ" [lesson/unknown-key]']);
  });

  it.each([
    ['empty', 'name: ""', 'must not be empty'],
    ['blank', 'name: "   "', 'must not be blank'],
  ])('an %s name is reported once, with the broken image and anchor of the same file', async (_what, name, problem) => {
    const dir = await writeRepo(files(`${name}\nlesson_type: txt`, 'name: Setup\nlesson_type: text'));
    const r = await runCli(['validate', dir], { NO_COLOR: '1' });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `git/01-basics/01-welcome.md:2:7 error "name" ${problem} [lesson/invalid-field]`,
      'git/01-basics/01-welcome.md:3:14 error "lesson_type" must be one of "video", "text", "pdf", "embed", "audio", not "txt" [lesson/invalid-field]',
      'git/01-basics/01-welcome.md:11:1 error "img/areas.png": no file git/01-basics/img/areas.png in the repo [lesson/missing-file]',
    ]);
  });

  it('a broken anchor of a lesson with front-matter errors is still reported, with its hint', async () => {
    const dir = await writeRepo({ ...files('name: ""\nlesson_type: text', 'name: Setup\nlesson_type: text'), 'git/01-basics/img/areas.png': 'png' });
    await writeRepo({ 'git/01-basics/01-welcome.md': lesson('name: ""\nlesson_type: text', intro.replace('#setup', '#setpu')) }, dir);
    const r = await runCli(['validate', dir], { NO_COLOR: '1' });
    expect(lines(r.stderr)).toEqual([
      'git/01-basics/01-welcome.md:2:7 error "name" must not be empty [lesson/invalid-field]',
      'git/01-basics/01-welcome.md:9:30 error #setpu: no heading or anchor with this id in git/01-basics/02-setup.md [lesson/missing-anchor]',
    ]);
    expect(r.stderr).toContain('hint: did you mean #setup?');
  });
});
