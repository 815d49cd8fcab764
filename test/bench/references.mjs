// Reference checking on N lessons (default 1,000), as a ratio to rendering alone. Both compile
// the same generated repo in this process with one thread: the baseline renders with the
// renderer as it was before references were resolved (remark-parse + remark-gfm + remark-html,
// and its javascript: URL check), so its compile resolves nothing; the measured compile uses
// today's renderer (one parse to hast, heading ids, local references listed) and resolves every
// image, link and anchor against the repo. Each lesson has an image, a link to the previous
// lesson's heading and an in-page anchor. `repeats` runs of each, interleaved; the ratio is of
// the fastest runs (the least disturbed on a shared machine), the medians' ratio beside it.
// Usage (after `npm run build`): node test/bench/references.mjs [lessons=1000] [repeats=7]
import { join } from 'node:path';
import remarkGfm from 'remark-gfm';
import remarkHtml from 'remark-html';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { cleanup, median, ms, ratio, ROOT, tempDir } from './lib.mjs';

const [lessons = 1000, repeats = 7] = process.argv.slice(2).map(Number);
const { generateRepo } = await import(join(ROOT, 'test/bench/out/generate-repo.js'));
const { compileCourse } = await import(join(ROOT, 'dist/compile/index.js'));
const { renderMarkdown } = await import(join(ROOT, 'dist/compile/render.js'));
const { readSource } = await import(join(ROOT, 'dist/source/read-source.js'));

const before = unified().use(remarkParse).use(remarkGfm).use(remarkHtml, { sanitize: false }).freeze();
/** The renderer before references: HTML and the javascript: URL check, no ids, no references. */
function renderBefore(markdown) {
  const tree = before.parse(markdown);
  before.runSync(tree);
  const html = String(before.stringify(tree));
  visit(tree, (node) => {
    if ((node.type === 'link' || node.type === 'image') && /^javascript:/i.test(node.url)) throw new Error('unexpected');
  });
  return { html, problems: [], anchors: [], refs: [] };
}

const dir = await tempDir('references');
await generateRepo(dir, { lessons, seed: 7, references: true });
const tree = await readSource(dir);
console.log(`\n## reference checking: ${lessons} lessons (an image, a link to another lesson's heading, an in-page anchor each), one thread`);

function time(render) {
  const t0 = performance.now();
  const result = compileCourse(tree, { render });
  const elapsed = performance.now() - t0;
  if (!result.desired) throw new Error(`the generated repo does not compile: ${result.diagnostics.slice(0, 3).map((d) => d.message).join('; ')}`);
  return { elapsed, result };
}

// Warm up both (JIT, module loading) before measuring.
time(renderBefore);
const checked = time(renderMarkdown).result;
let assets = 0;
let links = 0;
for (const p of checked.desired.programs) for (const s of p.sections) for (const l of s.lessons) (assets += l.assets?.length ?? 0), (links += l.links?.length ?? 0);
const base = [];
const refs = [];
for (let i = 0; i < repeats; i++) {
  base.push(time(renderBefore).elapsed);
  refs.push(time(renderMarkdown).elapsed);
}
console.log(`render alone (compile with the renderer before references): ${ms(median(base))} (runs: ${base.map(ms).join(', ')})`);
console.log(`render + heading ids + reference checking (${assets} images, ${links} lesson links resolved): ${ms(median(refs))} (runs: ${refs.map(ms).join(', ')})`);
console.log(`ratio: ${ratio(Math.min(...refs), Math.min(...base))} of the fastest runs, ${ratio(median(refs), median(base))} of the medians (target ≤ 1.20×)`);
await cleanup();
