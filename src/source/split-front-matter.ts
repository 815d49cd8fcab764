/**
 * Split a lesson file into its front-matter and its body, keeping the file line where each
 * starts (PURE). The block is the one Jekyll, Hugo and mdBook's preprocessors know: a first
 * line `---`, then every line up to the next line that is `---` (trailing blanks allowed); or
 * Hugo's and Zola's TOML block, the same between `+++` lines. compile/ parses it later (YAML
 * with the strict `yaml` settings, TOML with smol-toml).
 *
 * No library: gray-matter did this with an engine that parsed nothing (its own js-yaml would
 * be lenient, and its JS engine evals), and cost ~35 ms of loading js-yaml and esprima on
 * every run that split one file.
 */
import type { FrontMatterBlock, TextBlock } from '../model/source-tree.js';

export interface FrontMatterSplit {
  frontMatter: FrontMatterBlock | null;
  frontMatterUnclosed: boolean;
  body: TextBlock;
}

const OPEN = /^(---|\+\+\+)[ \t]*(?:\n|$)/;
/** The closing line, searched from the end of the opening line: the newline before it starts the match. */
const CLOSE = { '---': /\n---[ \t]*(?:\n|$)/g, '+++': /\n\+\+\+[ \t]*(?:\n|$)/g };

/** Split `text` (LF line endings, no BOM) into front-matter and body. */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const open = OPEN.exec(text);
  if (!open) return { frontMatter: null, frontMatterUnclosed: false, body: { text, line: 1 } };
  const delimiter = open[1] as keyof typeof CLOSE;
  const toml = delimiter === '+++' ? ({ toml: true } as const) : {};
  const closing = CLOSE[delimiter];
  closing.lastIndex = 3;
  const close = closing.exec(text);
  if (!close) return { frontMatter: { text: text.slice(3), line: 1, ...toml }, frontMatterUnclosed: true, body: { text: '', line: lineCount(text) } };
  // The block starts with the opening line's newline (its blanks dropped): its line N is file line N.
  const blockText = text.slice(3, close.index).replace(/^[ \t]*/, '');
  const bodyStart = close.index + close[0].length;
  return { frontMatter: { text: blockText, line: 1, ...toml }, frontMatterUnclosed: false, body: { text: text.slice(bodyStart), line: lineCount(text.slice(0, bodyStart)) } };
}

/** 1 + the number of newlines in `s`: the line a text following `s` starts on. */
function lineCount(s: string): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
