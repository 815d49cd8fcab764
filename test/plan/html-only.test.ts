/**
 * HTML-only updates: grouped one line each by cause in both renderings, and selected by
 * --skip-html-only / --html-only with chains, summary and learner impact following. The steps'
 * `cause` is set here as the planner sets it (the file, the renderer, a reference, a setting).
 */
import { describe, expect, it } from 'vitest';
import { diffCourse } from '../../src/plan/diff-course.js';
import { htmlOnlyCause, selectHtmlOnly } from '../../src/plan/html-only.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { desiredOf, sectionIdsOf, stateOf } from './build-course.js';

const RENDERED = Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, '0')}`);

/**
 * 12 lessons whose HTML changed with the renderer (a table now has a <thead>), one whose image
 * changed, one whose file changed, one whose name and body changed with inherited settings,
 * and a new one.
 */
function mixedPlan(): Plan {
  const table = (head: boolean) => `<table>${head ? '<thead>' : ''}<tr><th>key</th></tr>${head ? '</thead>' : ''}<tr><td>name</td></tr></table>\n`;
  const desired = desiredOf({
    p: {
      s1: [
        ...RENDERED.map((key) => ({ key, fields: { body: table(true) } })),
        { key: 'img', fields: { body: '<p><img src="https://cdn.example.com/logo.0123456789abcdef.png" alt="Logo"></p>\n' } },
        { key: 'edited', fields: { body: '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n' } },
        { key: 'inherited', fields: { name: 'Renamed by defaults', body: '<p>x</p>\n' } },
        'fresh',
      ],
    },
  });
  const state = stateOf(
    { p: { s1: [...RENDERED, 'img', 'edited', 'inherited'] } },
    {
      ...Object.fromEntries(RENDERED.map((key) => [key, { applied: { ...stateOf({ p: { s1: [key] } }).lessons[key]!.applied, body: table(false) } }])),
      img: { applied: { ...stateOf({ p: { s1: ['img'] } }).lessons.img!.applied, body: '<p><img src="https://cdn.example.com/logo.fedcba9876543210.png" alt="Logo"></p>\n' } },
    },
  );
  const plan = diffCourse(desired, state, { sectionIds: sectionIdsOf(desired) });
  const causes: Record<string, NonNullable<Plan['changes'][number] & { cause?: string }>['cause']> = { img: 'references', edited: 'file', inherited: 'settings' };
  return {
    ...plan,
    changes: plan.changes.map((c) => {
      if (!isCall(c) || c.action !== 'update') return c;
      const cause = RENDERED.includes(c.key) ? 'renderer' : (causes[c.key] as 'references' | 'file' | 'settings');
      return c.key === 'img' ? { ...c, cause, why: ['image img/logo.png changed'] } : { ...c, cause };
    }),
  };
}

describe('HTML-only updates', () => {
  it('only updates of body/description alone, with a cause other than the file, are HTML-only', () => {
    const plan = mixedPlan();
    const htmlOnly = plan.changes.filter((c) => htmlOnlyCause(c)).map((c) => c.key);
    expect(htmlOnly).toEqual([...RENDERED, 'img']);
    // The name changed too: not HTML-only, even though the cause is a setting.
    expect(htmlOnlyCause(plan.changes.find((c) => c.key === 'inherited')!)).toBeUndefined();
  });

  it('text: one group per cause, one line per lesson, no diff', () => {
    const text = renderText(mixedPlan(), { color: false });
    expect(text).toContain(
      [
        '12 lessons change only because the renderer changed (a coursesync upgrade; the files did not change):',
        ...RENDERED.map((k) => `  ~ p/s1/${k}.md (id_${k})`),
        '',
        '1 lesson changes only because an image, file, lesson, include or variable it uses changed:',
        '  ~ p/s1/img.md (id_img): image img/logo.png changed',
        '',
        '(`--skip-html-only` applies the rest without them, `--html-only` applies only them)',
      ].join('\n'),
    );
    expect(text).not.toContain('<thead>');
    // The other changes are listed as usual; the inherited one says why there is no Markdown diff.
    expect(text).toContain('  ~ p/s1/edited.md (id_edited) will be updated in place\n      body: changed (');
    expect(text).toContain('  ~ p/s1/inherited.md (id_inherited) will be updated in place\n      name: "Lesson inherited" → "Renamed by defaults"\n');
    expect(text).toContain('  + p/s1/fresh.md will be created in s1 at 16\n      name "Lesson fresh" · text · 20 bytes of HTML\n');
    // --html-diff: each grouped lesson's HTML diff under its line.
    expect(renderText(mixedPlan(), { color: false, htmlDiff: true })).toContain('  ~ p/s1/r00.md (id_r00)\n      body:\n        @@ -1,1 +1,1 @@\n        -<table><tr>');
  });

  it('markdown: a folded group per cause', () => {
    const md = renderMarkdown(mixedPlan());
    expect(md).toContain('<details><summary>~ 12 lessons change only because the renderer changed (a coursesync upgrade; the files did not change)</summary>\n\n- **p/s1/r00.md** (id_r00)\n');
    expect(md).toContain('- **p/s1/img.md** (id_img): image img/logo.png changed\n');
    expect(md).toContain('<details><summary>~ 2 to update</summary>');
    expect(md).not.toContain('thead');
  });

  it('--skip-html-only: the rest, with chains, summary and impact following', () => {
    const plan = mixedPlan();
    const rest = selectHtmlOnly(plan, 'skip');
    expect(rest.changes.filter(isCall).map((c) => c.key)).toEqual(plan.changes.filter(isCall).map((c) => c.key).filter((k) => k !== 'img' && !RENDERED.includes(k)));
    expect(rest.summary).toEqual({ ...plan.summary, update: 2 });
    const ids = new Set(rest.changes.filter(isCall).map((c) => c.call_id));
    expect(rest.chains.flatMap((c) => c.steps).every((id) => ids.has(id))).toBe(true);
    expect(rest.chains.flatMap((c) => c.steps)).toHaveLength(ids.size);
    expect(rest.notes?.at(-1)).toBe('13 HTML-only updates held back (--skip-html-only): the next plan still shows them');
    expect(rest.impact).toEqual(plan.impact);
  });

  it('--html-only: only those; the create and its learner impact wait', () => {
    const plan = mixedPlan();
    expect(plan.impact.map((i) => i.key)).toContain('fresh');
    const only = selectHtmlOnly(plan, 'only');
    expect(only.changes.map((c) => c.key)).toEqual([...RENDERED, 'img']);
    expect(only.summary).toEqual({ ...plan.summary, create: 0, update: 13 });
    expect(only.impact.map((i) => i.key)).not.toContain('fresh');
    expect(only.chains.flatMap((c) => c.steps)).toHaveLength(13);
    // The selected plan says what it held back instead of offering the selection again.
    expect(renderText(only, { color: false })).not.toContain('--skip-html-only');
    expect(renderMarkdown(only)).toContain('> 3 changes held back (--html-only): the next plan still shows them');
    expect(selectHtmlOnly(plan, 'all')).toBe(plan);
  });

  it('a body known only by its fingerprint (state v2) is summarised; --html-diff shows the new HTML whole', () => {
    const plan = mixedPlan();
    const edited = plan.changes.find((c) => c.key === 'edited')!;
    const fingerprinted = { ...edited, fields: edited.fields.map((f) => (f.field === 'body' ? { ...f, before: `sha256:${'a'.repeat(32)}` } : f)) };
    const p = { ...plan, changes: plan.changes.map((c) => (c.key === 'edited' ? fingerprinted : c)) };
    expect(renderText(p, { color: false })).toContain('      body: changed (HTML known by fingerprint → 37 characters of HTML)\n');
    expect(renderText(p, { color: false, htmlDiff: true })).toContain(`      body:\n        (the HTML last sent is not kept in state, only its fingerprint sha256:${'a'.repeat(32)})\n        @@ -1,0 +1,4 @@\n        +<ul>\n`);
  });
});
