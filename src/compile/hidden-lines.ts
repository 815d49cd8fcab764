/**
 * The hidden lines of a Rust example (PURE), as mdBook hides them, with rustdoc's rule: a line
 * whose text, blanks trimmed, starts with `# ` or is a lone `#` is boilerplate readers are not
 * shown (`# fn main() {`, a licence header); one starting with `##` shows with one `#` less;
 * `#[derive(…)]` and `#![…]` are code. The book shows hidden lines only behind its eye button,
 * so learners get the example without them, as `{{#rustdoc_include}}` gives only its part.
 * Only in a block whose language is `rust` (`rust,editable`, `rust ignore`): other languages
 * hide nothing unless a book's own configuration says so, which coursesync does not read.
 */
import type { Code } from 'mdast';

/** Leave out the hidden lines of `code` when it is a Rust block. */
export function hideRustLines(code: Code): void {
  if (!code.value.includes('#') || code.lang?.split(/[,\s]/)[0] !== 'rust') return;
  const shown: string[] = [];
  for (const line of code.value.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('##')) shown.push(line.replace('##', '#'));
    else if (!trimmed.startsWith('# ') && trimmed !== '#') shown.push(line);
  }
  code.value = shown.join('\n');
}
