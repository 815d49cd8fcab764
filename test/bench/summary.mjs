// The summary of figures.mjs: each goal of the scale table, what was measured (per build:
// "before" when an older build ran too, and "now") and whether "now" meets it.
const f0 = (x) => x.toFixed(0);
const f2 = (x) => `${x.toFixed(2)}×`;

/** Each figure: its goal, how one build's result reads, and whether it meets the goal. */
const FIGURES = [
  {
    key: 'warm',
    name: (n) => `plan, warm, nothing changed, ${n} lessons`,
    goal: '≤ 1.5× sync read+hash and < 600 ms',
    read: (f, b) => `${f2(b.ratio)} (${f0(b.wall)} ms vs ${f0(f.base.sync)} ms; ${f2(b.ratioAsync)} async)`,
    met: (f, b) => b.ratio <= 1.5 && b.wall < 600,
  },
  {
    key: 'fresh',
    name: () => 'plan, fresh checkout, one lesson edited',
    goal: '≤ 3× sync read+hash',
    read: (f, b) => `${f2(b.ratio)} (${f0(b.wall)} ms vs ${f0(f.base.sync)} ms; ${f2(b.ratioAsync)} async)`,
    met: (f, b) => b.ratio <= 3,
  },
  {
    key: 'ci',
    name: () => 'plan, fresh checkout in CI (the cache the workflows keep, restored), one lesson edited',
    goal: '≤ 3× sync read+hash (as the fresh checkout)',
    read: (f, b) => `${f2(b.ratio)} (${f0(b.wall)} ms vs ${f0(f.base.sync)} ms; ${f2(b.ratioAsync)} async)`,
    met: (f, b) => b.ratio <= 3,
  },
  {
    key: 'apply',
    name: (n) => `first apply, ${n} creates, no latency, c=8 (whole \`apply --yes\` after a plan)`,
    goal: '≤ 2× the bare client',
    read: (f, b) => `${f2(b.ratio)} (${f0(b.wall)} ms vs ${f0(f.base)} ms; peak ${f0(b.peakMb)} MB)`,
    met: (f, b) => b.ratio <= 2,
  },
  {
    key: 'warm',
    name: () => 'peak memory, warm plan',
    goal: '≤ 160 MB',
    read: (f, b) => `${f0(b.peakMb)} MB`,
    met: (f, b) => b.peakMb <= 160,
  },
  {
    key: 'startup',
    name: () => '`--version`, `--help` (median wall)',
    goal: '< 100 ms',
    read: (f, b) => `${f0(b.version)} / ${f0(b.help)} ms (node -e "" ${f0(f.node)} ms)`,
    met: (f, b) => b.version < 100 && b.help < 100,
  },
];

export function summaryTable(results) {
  const before = results.builds.includes('before');
  const lines = [
    `## summary: the scale goals, ${results.lessons} lessons, ${results.cores} cores, load average ${results.loadStart} at the start, ${results.loadEnd} at the end` +
      (Number(results.loadStart.split(' ')[0]) > 1.5 ? ' (a loaded machine: wall times and ratios are noisy, re-run quiet)' : ''),
    '',
    `| figure | goal |${before ? ' before |' : ''} measured (now) | met |`,
    `|---|---|${before ? '---|' : ''}---|---|`,
  ];
  for (const fig of FIGURES) {
    const f = results.figures[fig.key];
    if (!f) continue;
    const cell = (name) => (f.builds[name] ? fig.read(f, f.builds[name]) : '–');
    lines.push(`| ${fig.name(results.lessons)} | ${fig.goal} |${before ? ` ${cell('before')} |` : ''} ${cell('now')} | ${fig.met(f, f.builds.now) ? 'yes' : '**no**'} |`);
  }
  return lines.join('\n');
}

// node test/bench/summary.mjs <figures.json>: the table again from a saved run.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFile } = await import('node:fs/promises');
  console.log(summaryTable(JSON.parse(await readFile(process.argv[2], 'utf8'))));
}
