/**
 * mdBook's hidden lines in Rust examples (rustdoc's rule): `# ` lines and lone `#` lines are
 * left out, `##` shows as `#`, attributes stay; other languages keep every line. Comprehensive
 * Rust opens 395 of its examples with a hidden licence header so.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/compile/render.js';

const codeOf = (markdown: string) => [...renderMarkdown(markdown).html.matchAll(/<code[^>]*>([^<]*)<\/code>/g)].map((m) => m[1]!.replace(/&#x26;/g, '&').replace(/&#x3C;/g, '<'));

describe('hidden lines of Rust examples', () => {
  it('leaves out the lines mdBook hides, keeps attributes, and unescapes ##', () => {
    const example = [
      '```rust,editable',
      '# // Copyright 2024 Google LLC',
      '# // SPDX-License-Identifier: Apache-2.0',
      '#',
      '#[derive(Debug)]',
      'struct Point { x: i32 }',
      '',
      '# fn main() {',
      '    let p = Point { x: 1 };',
      '    #   println!("hidden, indented");',
      '    ## not a hidden line',
      '    println!("{p:?}");',
      '# }',
      '```',
      '',
    ].join('\n');
    expect(codeOf(example)).toEqual(['#[derive(Debug)]\nstruct Point { x: i32 }\n\n    let p = Point { x: 1 };\n    # not a hidden line\n    println!("{p:?}");\n']);
    expect(renderMarkdown(example).html).toContain('<code class="language-rust,editable">');
  });

  it('hides only in Rust blocks: shell comments, Python and untagged blocks keep every line', () => {
    const shell = '```bash\n# install it\ncargo install mdbook\n```\n';
    const python = '```python\n# a comment\nprint(1)\n```\n';
    const plain = '```\n# fn main() {\n}\n```\n';
    const rusty = '```rustc\n# kept\n```\n';
    expect(codeOf(shell + python + plain + rusty)).toEqual(['# install it\ncargo install mdbook\n', '# a comment\nprint(1)\n', '# fn main() {\n}\n', '# kept\n']);
  });

  it('takes the language from an info string with spaces, and a block of hidden lines only is empty', () => {
    expect(codeOf('```rust ignore\n# use std::io;\nlet x = 1;\n```\n')).toEqual(['let x = 1;\n']);
    expect(codeOf('```rust\n# fn main() {}\n```\n')).toEqual(['']);
  });
});
