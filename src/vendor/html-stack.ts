/**
 * The Markdown and HTML packages coursesync renders and checks with (remark, GFM, rehype, hast
 * utilities, parse5 under them, GitHub's emoji names), in one module: compile renders and checks
 * lessons with it, the school's body rules (school-api/body-rules.ts) parse HTML with it. The
 * build bundles this module with them into one file (scripts/bundle-html-stack.mjs, which writes
 * dist/vendor/html-stack.js): Node then loads one file instead of ~300, about a third of the
 * time, which a plan pays whenever it renders anything, and every render worker at its start.
 * Unbundled (under a test runner, or a plain `tsc` build) it works the same.
 */
export { nameToEmoji } from 'gemoji';
export { default as GithubSlugger } from 'github-slugger';
export { fromHtml } from 'hast-util-from-html';
export { toHtml } from 'hast-util-to-html';
export { default as rehypeRaw } from 'rehype-raw';
export { default as remarkGfm } from 'remark-gfm';
export { default as remarkParse } from 'remark-parse';
export { default as remarkRehype } from 'remark-rehype';
export { unified, type Data, type Processor } from 'unified';
