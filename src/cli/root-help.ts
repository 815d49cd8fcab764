/**
 * The root's help (`coursesync --help`, `-h`, `help`) without commander: the text commander
 * prints, taken from the real program at build time (scripts/write-root-help.mjs writes
 * root-help.json) and laid out here for the output's width. Commander wraps its items and the
 * description to the terminal's width, so the file keeps those pieces apart and this module
 * wraps them by commander's rules; test/cli/startup.test.ts checks the result equals
 * commander's own output at every width.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ExitCode } from '../diagnostics/exit-codes.js';

/** An item (term, the width of the term column, description), a paragraph to wrap, or text as is. */
export type HelpPiece = string | { item: [term: string, termWidth: number, description: string] } | { wrap: string };

/** Below this width commander leaves text unwrapped (its Help.minWidthToWrap). */
const MIN_WIDTH_TO_WRAP = 40;

/**
 * Print the root's help; undefined when the build wrote no root-help.json (a build by tsc
 * alone): commander answers then.
 */
export async function printRootHelp(): Promise<number | undefined> {
  let pieces: HelpPiece[];
  try {
    pieces = JSON.parse(await readFile(new URL('./root-help.json', import.meta.url), 'utf8')) as HelpPiece[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  // As commander sizes help for stdout: a terminal's columns, else 80.
  process.stdout.write(layOut(pieces, (process.stdout.isTTY ? process.stdout.columns : undefined) ?? 80));
  return ExitCode.Ok;
}

/** The help text for an output `width` columns wide. */
export function layOut(pieces: readonly HelpPiece[], width: number): string {
  return pieces.map((p) => (typeof p === 'string' ? p : 'wrap' in p ? wrap(p.wrap, width) : item(...p.item, width))).join('');
}

/** The help `program` prints, its width-dependent pieces kept apart (for root-help.json). */
export function helpPieces(program: Command): HelpPiece[] {
  const marked: Exclude<HelpPiece, string>[] = [];
  const mark = (p: Exclude<HelpPiece, string>) => `\0${marked.push(p) - 1}\0`;
  program.configureHelp({
    ...program.configureHelp(),
    formatItem: (term, termWidth, description) => mark({ item: [term, termWidth, description] }),
    boxWrap: (text) => mark({ wrap: text }),
  });
  let out = '';
  program.configureOutput({ ...program.configureOutput(), writeOut: (s) => (out += s), getOutHasColors: () => false });
  program.outputHelp();
  return out
    .split(/\0(\d+)\0/)
    .map((s, i) => (i % 2 === 0 ? s : marked[Number(s)]!))
    .filter((p) => p !== '');
}

/** A term padded to its column, then its description wrapped beside it (commander's formatItem). */
function item(term: string, termWidth: number, description: string, width: number): string {
  if (!description) return `  ${term}`;
  const room = width - termWidth - 4;
  const preformatted = /\n[^\S\r\n]/.test(description);
  const text = room < MIN_WIDTH_TO_WRAP || preformatted ? description : wrap(description, room).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${text.replace(/\n/g, '\n  ')}`;
}

/** Each line broken at spaces so that it fits `width`, where a word allows (commander's boxWrap). */
function wrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  return text
    .split(/\r\n|\n/)
    .map((line) => {
      const chunks = line.match(/\s*\S+/g);
      if (chunks === null) return '';
      const lines = [chunks[0]!];
      for (const chunk of chunks.slice(1)) {
        if (lines.at(-1)!.length + chunk.length <= width) lines[lines.length - 1] += chunk;
        else lines.push(chunk.trimStart());
      }
      return lines.join('\n');
    })
    .join('\n');
}
