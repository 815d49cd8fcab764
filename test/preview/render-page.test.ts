import { describe, expect, it } from 'vitest';
import { renderMain, renderPreviewPage } from '../../src/preview/index.js';
import { loadCourse } from '../../src/load/load-course.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';
import { afterAll } from 'vitest';
import { join } from 'node:path';
import { PREVIEW_COURSE } from './fixture-course.js';

afterAll(removeRepos);

async function compiled(files: Record<string, string> = PREVIEW_COURSE) {
  const dir = await writeRepo(files);
  return loadCourse(dir, { renderThreads: 1 });
}

describe('the preview page', () => {
  it('lists lessons in learner order with draft, lock and day marks, and the calendar by day', async () => {
    const { desired, diagnostics } = await compiled();
    expect(diagnostics).toEqual([]);
    const html = renderMain({ desired, stale: false, diagnostics, version: 3 });
    expect(html).toContain('<main id="preview" data-version="3">');
    expect([...html.matchAll(/<article class="lesson[^"]*" id="lesson-([^"]+)"/g)].map((m) => m[1])).toEqual(['welcome', 'install', 'quiz', 'notes', 'primitives', 'objects', 'unions', 'talk']);
    expect(html).toMatch(/id="lesson-quiz"[^>]*data-locked="true"/);
    expect(html).toMatch(/id="lesson-notes"[^>]*data-visible="false"[\s\S]*?<span class="mark draft"/);
    expect(html).toMatch(/id="lesson-primitives"[^>]*data-gated-by="quiz"[\s\S]*?Opens after completing <a href="\/#lesson-quiz">quiz<\/a>/);
    const days = [...html.matchAll(/<li class="day" data-day="(\d+)"><h3>Day \d+<\/h3><p>(\d+) lessons? unlocks?<\/p>/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(days).toEqual([[0, 1], [2, 1], [7, 2], [14, 2], [21, 1]]);
  });

  it('has one calendar per program: day 0 is when access to that program starts', async () => {
    const { desired } = await loadCourse(join(import.meta.dirname, '../../examples'), { renderThreads: 1 });
    const html = renderMain({ desired, stale: false, diagnostics: [], version: 1 });
    expect([...html.matchAll(/<div class="program-calendar" data-program="([^"]+)">/g)].map((m) => m[1])).toEqual(['prog_advanced', 'prog_intro']);
  });

  it('escapes every text that is not the lesson own HTML; bodies and embeds are kept byte for byte', async () => {
    const { desired, diagnostics } = await compiled();
    const html = renderPreviewPage({ desired, stale: false, diagnostics, version: 1 });
    expect(html).toContain('Welcome &lt;aboard&gt;');
    expect(html).not.toContain('Welcome <aboard>');
    for (const p of desired!.programs) for (const s of p.sections) for (const l of s.lessons) expect(html).toContain(`<div class="lesson-body" data-key="${l.key}">${l.fields.body}</div>`);
    expect(html).toContain('<div class="player embed" data-player="embed"><div class="quiz" data-quiz="q1">Quiz</div></div>');
    expect(html).toContain('src="https://www.youtube-nocookie.com/embed/Zp5rCk4vW7s"');
    expect(html).toContain('src="https://player.vimeo.com/video/76979871"');
    expect(html).toContain('src="https://fast.wistia.net/embed/iframe/abc123xyz0"');
    expect(html).toContain('src="https://www.loom.com/embed/0281766fa2d04bb788eaf19e65135184"');
    expect(html).toContain('<div class="player" data-player="embed_code"><div class="player-box" data-talk="t1">talk</div></div>');
  });

  it('shows diagnostics at path:line with the message, escaped, over the last course without errors', async () => {
    const good = await compiled();
    const bad = await compiled({ ...PREVIEW_COURSE, 'course/01-start/05-bad.md': '---\nnam: <b>Typo</b>\n---\nx\n' });
    expect(bad.desired).toBeUndefined();
    const html = renderMain({ desired: good.desired, stale: true, diagnostics: bad.diagnostics, version: 2 });
    expect(html).toMatch(/<code class="place">course\/01-start\/05-bad\.md:2:1<\/code> <span class="severity">error<\/span> <span class="message">[^<]*nam/);
    expect(html).toContain('The course below is the last version without errors.');
    expect(html).not.toContain('<b>Typo</b>');
  });

  it('before any compile without errors, the page has the diagnostics and no course', () => {
    const html = renderMain({ desired: undefined, stale: true, diagnostics: [{ file: 'c/p/s/a.md', line: 3, column: 5, code: 'yaml/syntax', severity: 'error', message: 'bad "yaml" & more' }], version: 1 });
    expect(html).toContain('0 lessons');
    expect(html).toContain('<code class="place">c/p/s/a.md:3:5</code>');
    expect(html).toContain('bad &quot;yaml&quot; &amp; more');
    expect(html).not.toContain('id="calendar"');
  });
});
