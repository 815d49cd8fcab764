/**
 * Split a lesson file into its YAML front-matter and its body, keeping the file line where
 * each starts (PURE). gray-matter finds the block; YAML is parsed later by compile/ with the
 * strict `yaml` settings, so gray-matter gets an engine that parses nothing.
 */
import type matterType from 'gray-matter';
import { createRequire } from 'node:module';
import type { TextBlock } from '../model/source-tree.js';

// Loaded on the first split (with js-yaml and esprima, ~35 ms): a plan whose lessons all come
// from the state or the memo splits none.
let matter: typeof matterType | undefined;
const load = () => (matter ??= createRequire(import.meta.url)('gray-matter') as typeof matterType);

export interface FrontMatterSplit {
  frontMatter: TextBlock | null;
  frontMatterUnclosed: boolean;
  body: TextBlock;
}

// gray-matter would otherwise hand the block to js-yaml (lenient, throws) or eval JS engines.
const noParse = { parse: () => ({}), stringify: () => '' };
const OPTIONS = { engines: { yaml: noParse, json: noParse, javascript: noParse } };

/** Split `text` (LF line endings, no BOM) into front-matter and body. */
export function splitFrontMatter(text: string): FrontMatterSplit {
  if (!/^---[ \t]*(\n|$)/.test(text)) {
    return { frontMatter: null, frontMatterUnclosed: false, body: { text, line: 1 } };
  }
  const closed = /\n---[ \t]*(\n|$)/.test(text.slice(3));
  if (!closed) {
    return { frontMatter: { text: text.slice(3), line: 1 }, frontMatterUnclosed: true, body: { text: '', line: lineCount(text) } };
  }
  const file = load()(text, OPTIONS);
  // `matter` starts right after the opening `---`, with its newline: YAML line N is file line N.
  const yamlText = file.matter.replace(/^[ \t]*/, '');
  const body = text.endsWith(file.content) ? file.content : '';
  const bodyLine = lineCount(text.slice(0, text.length - body.length));
  return { frontMatter: { text: yamlText, line: 1 }, frontMatterUnclosed: false, body: { text: body, line: bodyLine } };
}

/** 1 + the number of newlines in `s`: the line a text following `s` starts on. */
function lineCount(s: string): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
