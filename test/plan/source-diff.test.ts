/**
 * The pieces of an author's plan: a lesson file's diff, a new file's preview, and a comment that
 * still fits when the file diffs are long (they are dropped first, and the comment says so).
 */
import { describe, expect, it } from 'vitest';
import { diffCourse } from '../../src/plan/diff-course.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { COMMENT_LIMIT, renderMarkdown } from '../../src/plan/render-markdown.js';
import { createPreview, sourceDiffLines, type StepSource } from '../../src/plan/source-diff.js';
import { desiredOf, sectionIdsOf, stateOf } from './build-course.js';

const FILE = [
  '---',
  'name: Images and links',
  'lesson_type: text',
  'drip_delay: 2',
  'is_progression_locked: true',
  '---',
  '# Images',
  '',
  '![The clone dialog](images/clone_repo.png)',
  '',
  'Next: [setup](02-setup.md#installing-git).',
  '',
].join('\n');

describe('source diffs', () => {
  it('a file diff has headers and hunks; an unchanged file none', () => {
    const after = FILE.replace('[setup](02-setup.md#installing-git)', '[setup](02-setup.md#step)');
    expect(sourceDiffLines('p/s/01-images.md', FILE, after)).toEqual([
      '--- p/s/01-images.md (as last applied)',
      '+++ p/s/01-images.md',
      '@@ -9,3 +9,3 @@',
      ' ![The clone dialog](images/clone_repo.png)',
      ' ',
      '-Next: [setup](02-setup.md#installing-git).',
      '+Next: [setup](02-setup.md#step).',
    ]);
    expect(sourceDiffLines('p/s/01-images.md', FILE, FILE)).toEqual([]);
  });

  it('a new file: name, type, draft/drip/lock when set, size and its first lines', () => {
    const desired = desiredOf({ p: { s1: [{ key: 'images', fields: { drip_delay: 2, is_progression_locked: true, is_published: false } }] } });
    const step = diffCourse(desired, stateOf({}), { sectionIds: sectionIdsOf(desired) }).changes.find(isCall)!;
    const preview = createPreview(step, FILE);
    expect(preview.summary).toBe('name "Lesson images" · text · draft · unlocks 2 days after its section · locks progression · 188 bytes, 11 lines');
    expect(preview.lines).toEqual([...FILE.split('\n').slice(0, 8), '… 3 more lines']);
    expect(createPreview(step, '---\nname: x\n---\n').lines).toEqual(['---', 'name: x', '---']);
  });

  it('a comment with long file diffs drops them first and says so', () => {
    const keys = Array.from({ length: 300 }, (_, i) => `k${i}`);
    const desired = desiredOf({ p: { s1: keys.map((k) => ({ key: k, fields: { body: `<p>new ${k}</p>` } })) } });
    const plan = diffCourse(desired, stateOf({ p: { s1: keys } }), { sectionIds: sectionIdsOf(desired) });
    const long = (tag: string) => `---\nname: Lesson\n---\n${Array.from({ length: 60 }, (_, i) => `- ${tag} item ${i} with a [link](https://example.com/${i})`).join('\n')}\n`;
    const sources = new Map<string, StepSource>(plan.changes.filter(isCall).map((c) => [c.call_id, { before: long('old'), after: long('new') }]));
    const md = renderMarkdown(plan, { sources, folder: 'course' });
    expect(md.length).toBeLessThan(COMMENT_LIMIT);
    expect(md).toContain('This plan was shortened to fit one comment: the file diffs are left out.');
    expect(md).toContain('- `~` **p/s1/k0.md** (id_k0) will be updated in place\n  - diff left out to fit one comment');
  });
});
