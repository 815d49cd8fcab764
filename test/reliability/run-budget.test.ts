/**
 * A bound on a whole run, through the built CLI: six lessons that each make the Markdown
 * parser quadratic would each take their own budget (10.8 s at 195,000 characters) before; now
 * once the budgets of the renderings stopped add up to the run's (RUN_SLOW_MS), nothing more is
 * rendered and every lesson left is an error at its path naming why, while a well-formed lesson
 * rendered first is fine. Counted in budgets, so the outcome is the same on any machine.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { renderTimeLimitMs, RUN_SLOW_MS } from '../../src/compile/render-budget.js';
import { lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const LENGTH = 195_000;
const HOSTILE = 'a]('.repeat(LENGTH / 3);
const FINE = lesson('name: Fine\nlesson_type: text', '# Fine\n\n> A quote with a [link](https://example.com).\n\n- one\n  - two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');

describe('the budget of a whole run', () => {
  it('stops rendering once stopped lessons have used it, naming every lesson left', async () => {
    // Two of these lessons use the run's budget up: the bound this test relies on.
    expect(Math.ceil(RUN_SLOW_MS / renderTimeLimitMs(LENGTH))).toBe(2);
    const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n', 'p/s/00-fine.md': FINE };
    // Six different texts (the same text twice would be rendered once).
    for (let i = 1; i <= 6; i++) files[`p/s/0${i}-links-${i}.md`] = lesson(`name: Links ${i}\nlesson_type: text`, `${i}${HOSTILE}`);
    const dir = await writeRepo(files);
    const r = await runCli(['validate', dir], { COURSESYNC_RENDER_THREADS: '2' });
    expect(r.code).toBe(1);
    const own = r.stderr.match(/^p\/s\/0\d-links-\d\.md:5:1 error rendering the body did not finish within 10\.8 s .*\[lesson\/render-budget\]$/gm) ?? [];
    const left = r.stderr.match(/^p\/s\/0\d-links-\d\.md:5:1 error the body was not rendered: lessons stopped over their budget \(their errors name them\) used up this run's 20 s for slow renderings; fix those and run again \[lesson\/render-budget\]$/gm) ?? [];
    expect(own.length).toBeGreaterThanOrEqual(1);
    expect(own.length).toBeLessThanOrEqual(2);
    expect(own.length + left.length).toBe(6);
    expect(r.stderr).not.toContain('00-fine.md');
  }, 180_000);
});
