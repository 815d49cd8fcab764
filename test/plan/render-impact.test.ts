import { describe, expect, it } from 'vitest';
import { diffCourse } from '../../src/plan/diff-course.js';
import { parsePlanText, renderJson, renderMarkdown, renderText } from '../../src/plan/index.js';
import { desiredOf, sectionIdsOf, stateOf } from './build-course.js';

function planWithImpact() {
  const before = stateOf({ p: { s1: ['intro', { key: 'setup', fields: { drip_delay: 14 } }, 'draft'] } }, {});
  before.lessons.draft!.applied.is_published = false;
  const desired = desiredOf({
    p: { s1: ['intro', { key: 'setup', fields: { drip_delay: 21 } }, { key: 'draft', fields: { name: 'Lesson <b>draft</b>' } }, { key: 'quiz', fields: { is_progression_locked: true } }] },
  });
  return diffCourse(desired, before, { sectionIds: sectionIdsOf(desired) });
}

describe('learner impact in the plan renderings', () => {
  it('text lists each impact with its level, rule, file and message after the changes', () => {
    const text = renderText(planWithImpact(), { color: false });
    expect(text).toContain('Learner impact: 1 error, 2 infos\n');
    expect(text).toContain('  error   drip-grows      p/s1/setup.md: "Lesson setup" unlocks on day 21 instead of 14 (content learners could open becomes locked again) (to accept: acknowledge drip-grows=21)\n');
    expect(text).toContain('  info    new-lesson      p/s1/quiz.md: new lesson "Lesson quiz" unlocks on day 0\n');
    expect(text.indexOf('Learner impact')).toBeGreaterThan(text.indexOf('coursesync will perform'));
  });

  it('markdown has its own section: a table, escaped, and the refusal note for open errors', () => {
    const md = renderMarkdown(planWithImpact());
    expect(md).toContain('### Learner impact: 1 error, 2 infos\n\n| level | rule | lesson | what learners get |\n|---|---|---|---|\n| ⛔ error | `drip-grows` | p/s1/setup.md |');
    expect(md).toContain('draft "Lesson &lt;b&gt;draft&lt;/b&gt;" is published and unlocks on day 0');
    expect(md).toMatch(/apply refuses this error until each is acknowledged in the repo/);
    // The impact comes right after the summary line, before the folded changes.
    expect(md.indexOf('### Learner impact')).toBeLessThan(md.indexOf('<details>'));
  });

  it('JSON carries impact: [{level, rule, key, path, message, accepts, acknowledged}] and round-trips', () => {
    const plan = planWithImpact();
    const json = JSON.parse(renderJson(plan)) as { format_version: number; impact: unknown[] };
    expect(json.format_version).toBe(2);
    expect(json.impact[0]).toEqual({
      level: 'error',
      rule: 'drip-grows',
      key: 'setup',
      path: 'p/s1/setup.md',
      message: '"Lesson setup" unlocks on day 21 instead of 14 (content learners could open becomes locked again)',
      accepts: '21',
      acknowledged: false,
    });
    expect(parsePlanText(renderJson(plan), 'plan.json')).toEqual(plan);
  });

  it('a plan without impact renders no impact section', () => {
    const desired = desiredOf({ p: { s1: ['a'] } });
    const plan = diffCourse(desired, stateOf({ p: { s1: ['a'] } }), { sectionIds: sectionIdsOf(desired) });
    expect(plan.impact).toEqual([]);
    expect(renderText(plan, { color: false })).not.toContain('Learner impact');
    expect(renderMarkdown(plan)).not.toContain('Learner impact');
  });
});

describe('learner impact with hostile names', () => {
  it('a name holding newlines stays on one line in text and markdown', () => {
    const desired = desiredOf({ p: { s1: [{ key: 'a', fields: { name: 'A\n::error::injected\r|x|', drip_delay: 3 } }] } });
    const plan = diffCourse(desired, stateOf({ p: { s1: ['a'] } }), { sectionIds: sectionIdsOf(desired) });
    expect(plan.impact.map((i) => i.rule)).toEqual(['drip-grows']);
    for (const out of [renderText(plan, { color: false }), renderMarkdown(plan)]) {
      expect(out.split('\n').filter((l) => /^\s*::/.test(l))).toEqual([]);
    }
    expect(renderText(plan, { color: false })).toContain('p/s1/a.md: "A\\n::error::injected\\r|x|" unlocks on day 3 instead of 0');
  });
});
