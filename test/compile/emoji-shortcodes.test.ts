/**
 * GitHub's emoji shortcodes in lessons (compile/emoji-shortcodes.ts), as DataTalksClub's
 * zoomcamps write their headings (`## :movie_camera: SQL refresher`): the emoji GitHub shows,
 * heading ids as GitHub makes them, and everything else as written.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/compile/render.js';
import { loadCourse } from '../../src/load/load-course.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

describe('emoji shortcodes', () => {
  it('shows the emoji GitHub shows, in text, headings, links, tables and raw HTML', () => {
    const { html, anchors } = renderMarkdown(
      [
        '## :movie_camera: SQL refresher',
        '',
        ':tada: Done! :+1: and :-1: side by side::smile::',
        '',
        '| a | b |',
        '|---|---|',
        '| :whale: | [:pushpin: pinned](https://e.x) |',
        '',
        '<details><summary>:information_source: More</summary>',
        '',
        'Hidden :star:',
        '',
        '</details>',
        '',
      ].join('\n'),
    );
    expect(html).toContain('<h2 id="movie_camera-sql-refresher">🎥 SQL refresher</h2>');
    expect(html).toContain('<p>🎉 Done! 👍 and 👎 side by side:😄:</p>');
    expect(html).toContain('<td>🐳</td>');
    expect(html).toContain('<a href="https://e.x">📌 pinned</a>');
    expect(html).toContain('<summary>ℹ️ More</summary>');
    expect(html).toContain('<p>Hidden ⭐</p>');
    expect(anchors).toEqual(['movie_camera-sql-refresher']);
  });

  it('leaves names GitHub does not know, times and code as written', () => {
    const md = 'At 12:30:45, :mm: and :not_an_emoji: and :TADA:, :constructor: and :hasOwnProperty:.\n\n`:tada:` in code\n\n```\n:tada: in a block\n```\n\n<pre>:tada: raw</pre>\n\n<tt>:tada:</tt>\n';
    const { html } = renderMarkdown(md);
    expect(html).toContain('<p>At 12:30:45, :mm: and :not_an_emoji: and :TADA:, :constructor: and :hasOwnProperty:.</p>');
    expect(html).toContain('<code>:tada:</code> in code');
    expect(html).toContain(':tada: in a block');
    expect(html).toContain('<pre>:tada: raw</pre>');
    expect(html).toContain('<tt>:tada:</tt>');
    expect(html).not.toContain('🎉');
  });

  it('names a lesson by its heading with the emoji, and links its #fragment by GitHub id', async () => {
    const dir = await writeRepo({
      'coursesync.yaml': 'school:\n  lesson_url: https://academy.test/products/{program_id}/lessons/{lesson_id}\n',
      'course/program.yaml': 'id: prog_1\n',
      'course/01-intro/section.yaml': 'id: sec_1\n',
      'course/01-intro/01-welcome.md': '# :wave: Welcome\n\nSee [the refresher](02-sql.md#movie_camera-sql-refresher).\n',
      'course/01-intro/02-sql.md': '# SQL\n\n## :movie_camera: SQL refresher\n\nText.\n',
    });
    const result = await loadCourse(dir, { renderThreads: 1 });
    expect(result.diagnostics).toEqual([]);
    const lessons = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(lessons.map((l) => l.fields.name)).toEqual(['👋 Welcome', 'SQL']);
  });
});
