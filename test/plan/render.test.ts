import { describe, expect, it } from 'vitest';
import { diffCourse } from '../../src/plan/diff-course.js';
import { hasChanges, summaryLine } from '../../src/plan/describe-change.js';
import { parsePlanText, renderJson, renderJsonParts } from '../../src/plan/render-json.js';
import { printableJson } from '../../src/diagnostics/diagnostic.js';
import { COMMENT_LIMIT, renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { desiredOf, sectionIdsOf, stateOf } from './build-course.js';

/** A small change set: one create, one update with a body diff, one move, one orphan. */
function smallPlan() {
  const desired = desiredOf({
    p: {
      s1: ['new', { key: 'a', fields: { name: 'Alpha', body: '<p>Body of a</p>\n<p>second line</p>\n' } }, 'c'],
      s2: ['b'],
    },
  });
  const state = stateOf({ p: { s1: ['a', 'b', 'c', 'gone'], s2: [] } });
  return diffCourse(desired, state, { sectionIds: sectionIdsOf(desired) });
}

/** Ids are stable in these fixtures, but scrub them as a real run's would be. */
const scrub = (s: string) => s.replace(/id_[a-z]+/g, '<id>');

describe('renderings', () => {
  it('text with --html-diff: bodies as the HTML sent', () => {
    const text = renderText(smallPlan(), { color: false, htmlDiff: true });
    expect(scrub(text)).toMatchInlineSnapshot(`
      "coursesync will perform these actions:

        + p/s1/new.md will be created in s1 at 1
            name = "Lesson new"
            lesson_type = "text"
            drip_delay = 0
            is_published = true
            is_progression_locked = false
            body:
              @@ -1,0 +1,1 @@
              +<p>Body of new</p>

        ~ p/s1/a.md (<id>) will be updated in place
            name: "Lesson a" → "Alpha"
            body:
              (the HTML last sent is not kept in state, only its fingerprint sha256:ccfcef39dd800d62a5433663)
              @@ -1,0 +1,2 @@
              +<p>Body of a</p>
              +<p>second line</p>

        > p/s2/b.md (<id>) will move from s1 at 2 to s2 at 1

        ? p/s1/gone.md (<id>) was removed from the repo: kept in the school (removed_lessons: keep)
            key gone: \`coursesync state rm gone\` stops tracking it (the school keeps it); to unpublish removed lessons instead, set \`removed_lessons: unpublish\` in coursesync.yaml

      Learner impact: 1 info
        info    new-lesson      p/s1/new.md: new lesson "Lesson new" unlocks on day 0

      Plan: 1 to create, 1 to move, 1 to update, 1 orphaned, 1 unchanged.
      "
    `);
  });

  it('text with colour uses ANSI only when asked', () => {
    expect(renderText(smallPlan(), { color: true })).toMatch(/\x1b\[/);
    expect(renderText(smallPlan(), { color: false })).not.toMatch(/\x1b\[/);
  });

  it('markdown with --html-diff', () => {
    expect(scrub(renderMarkdown(smallPlan(), { htmlDiff: true }))).toMatchInlineSnapshot(`
      "**Plan: 1 to create, 1 to move, 1 to update, 1 orphaned, 1 unchanged.**

      ### Learner impact: 1 info

      | level | rule | lesson | what learners get |
      |---|---|---|---|
      | ℹ️ info | \`new-lesson\` | p/s1/new.md | new lesson "Lesson new" unlocks on day 0 |

      <details><summary>+ 1 to create</summary>

      - \`+\` **p/s1/new.md** will be created in s1 at 1
        - \`name\` = "Lesson new"
        - \`lesson_type\` = "text"
        - \`drip_delay\` = 0
        - \`is_published\` = true
        - \`is_progression_locked\` = false

        \`\`\`diff
        # body
        @@ -1,0 +1,1 @@
        +<p>Body of new</p>
        \`\`\`

      </details>

      <details><summary>~ 1 to update</summary>

      - \`~\` **p/s1/a.md** (<id>) will be updated in place
        - \`name\`: "Lesson a" → "Alpha"

        \`\`\`diff
        # body
        (the HTML last sent is not kept in state, only its fingerprint sha256:ccfcef39dd800d62a5433663)
        @@ -1,0 +1,2 @@
        +<p>Body of a</p>
        +<p>second line</p>
        \`\`\`

      </details>

      <details><summary>&gt; 1 to move</summary>

      - \`>\` **p/s2/b.md** (<id>) will move from s1 at 2 to s2 at 1

      </details>

      <details><summary>? 1 orphaned (removed from the repo, kept in the school)</summary>

      - \`?\` **p/s1/gone.md** (<id>) was removed from the repo: kept in the school (removed_lessons: keep)
        - \\\`coursesync state rm gone\\\` stops tracking it (the school keeps it); to unpublish removed lessons instead, set \\\`removed_lessons: unpublish\\\` in coursesync.yaml

      </details>
      "
    `);
  });

  it('markdown of a huge plan fits one comment and says it was shortened', () => {
    const big = '<p>' + 'x'.repeat(3000) + '</p>\n';
    const keys = Array.from({ length: 400 }, (_, i) => `k${i}`);
    const desired = desiredOf({ p: { s1: keys.map((k) => ({ key: k, fields: { body: big + k } })) } });
    const md = renderMarkdown(diffCourse(desired, stateOf({}), { sectionIds: sectionIdsOf(desired) }), { htmlDiff: true });
    expect(md.length).toBeLessThan(COMMENT_LIMIT);
    expect(md.startsWith('**Plan: 400 to create, 0 unchanged.**')).toBe(true);
    expect(md).toMatch(/This plan was shortened to fit one comment/);
  });

  it('markdown escapes lesson names and out-fences backticks in bodies', () => {
    const desired = desiredOf({ p: { s1: [{ key: 'a', fields: { name: '<img src=x>', body: '<pre>```js\nx\n```</pre>' } }] } });
    const md = renderMarkdown(diffCourse(desired, stateOf({}), { sectionIds: sectionIdsOf(desired) }), { htmlDiff: true });
    expect(md).not.toMatch(/<img/);
    expect(md).toMatch(/````diff/);
  });

  it.each([
    [{ create: 3, update: 4, move: 2, unpublish: 0, orphan: 1, drift: 0, uncertain: 0, unchanged: 40 }, 'Plan: 3 to create, 2 to move, 4 to update, 1 orphaned, 40 unchanged.', true],
    [{ create: 0, update: 0, move: 0, unpublish: 0, orphan: 0, drift: 0, uncertain: 0, unchanged: 40 }, 'No changes. 40 lessons unchanged.', false],
    [{ create: 0, update: 0, move: 0, unpublish: 0, orphan: 2, drift: 1, uncertain: 0, unchanged: 1 }, 'Plan: 2 orphaned, 1 drifted, 1 unchanged.', true],
    [{ create: 0, update: 0, move: 0, unpublish: 0, orphan: 3, drift: 0, uncertain: 0, unchanged: 5 }, 'No changes. 5 lessons unchanged, 3 orphaned.', false],
    [{ create: 0, update: 0, move: 0, unpublish: 0, orphan: 0, drift: 0, uncertain: 1, unchanged: 5 }, 'Plan: 1 uncertain, 5 unchanged.', true],
  ])('summary line %#', (summary, line, changes) => {
    expect(summaryLine(summary)).toBe(line);
    const plan = smallPlan();
    expect(hasChanges({ ...plan, summary })).toBe(changes);
  });

  it('a saved plan round-trips through JSON and the schema', () => {
    const plan = smallPlan();
    const text = renderJson(plan);
    expect(parsePlanText(text, 'plan.json')).toEqual(plan);
    expect(JSON.parse(text)).toMatchObject({ format_version: 2, summary: { create: 1, update: 1, move: 1, orphan: 1, unchanged: 1 } });
  });

  it('JSON comes in parts, one change each, that join to exactly the whole plan stringified (no string holds a 100k-create plan)', () => {
    const plan = smallPlan();
    // A body with a bidirectional control, a C1 control and lines of its own: escaped in every part.
    const tricky = { ...plan, notes: ['note \u202e reversed'], changes: plan.changes.map((c) => JSON.parse(JSON.stringify(c).replaceAll('Body of a', 'Body \\u0085 of \\u2066a')) as typeof c) };
    for (const p of [plan, tricky, { ...plan, changes: [] }]) {
      const parts = [...renderJsonParts(p)];
      expect(parts.join('')).toBe(printableJson(JSON.stringify(p, null, 2)) + '\n');
      expect(renderJson(p)).toBe(parts.join(''));
      expect(parts.length).toBe(p.changes.length === 0 ? 3 : p.changes.length + 4);
      expect(parts.join('')).not.toMatch(/[\u0085\u202e\u2066]/);
    }
    expect(JSON.stringify(tricky)).toMatch(/\u0085/);
  });

  it.each([
    ['{"format_version": 1', /not valid JSON/],
    ['{"format_version": 1}', /format_version 1; this coursesync reads 2/],
    ['{"format_version": 2, "summary": {}}', /not a coursesync plan/],
  ])('a bad plan file is a clear error: %s', (text, message) => {
    expect(() => parsePlanText(text, 'plan.json')).toThrow(message);
  });
});
