/**
 * Nothing vanishes silently, through the built CLI's `validate`: text a browser would swallow
 * as an unknown element is a warning at its place with the fix; generics in code are not HTML;
 * a published lesson linking a draft is a warning; a missing setting is one diagnostic with a
 * count, not one per reference; an `ignore:` pattern that matches nothing is a warning.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const SETTINGS = 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://cdn.example.com/rust/\n';

const smartPointers = `# Smart pointers

A Box<T> puts its value on the heap. Press <ENTER> to run the example, or <kbd>Ctrl</kbd>+<kbd>C</kbd>
to stop it. Written as code, \`Rc<T>\` is fine, and so is Arc&lt;T>.

<!-- TODO: a diagram of <Box> on the heap -->

| Type | Owner |
|---|---|
| \`Box<T>\` | one |
| \`Rc<T>\` | many |

Next: [vectors](02-vectors.md).

<Listing number="15-1" file-name="src/main.rs" caption="Storing an i32 value on the heap">

\`\`\`rust
let b = Box::new(5);
\`\`\`

</Listing>

<Listing number="15-2" caption="A cons list">

\`\`\`rust
enum List { Cons(i32, Box<List>), Nil }
\`\`\`

</Listing>
`;

const vectors = () => {
  const lines = Array.from({ length: 70 }, (_, i) => `    let v${i}: Vec<T> = Vec::with_capacity(${i});`).join('\n');
  const prose = Array.from({ length: 31 }, (_, i) => `Step ${i}: push onto a \`Vec<T>\` and read it back.`).join('\n\n');
  return `# Vectors\n\n\`\`\`rust\nfn main() {\n${lines}\n}\n\`\`\`\n\n${prose}\n\nSee [the draft on slices](03-slices.md).\n`;
};

function repo(config: string, extra: Record<string, string> = {}) {
  return writeRepo({
    'coursesync.yaml': config,
    'rust/program.yaml': 'id: prog_rust\nname: The Rust book\n',
    'rust/ch15/section.yaml': 'id: sec_ch15\n',
    'rust/ch15/01-smart-pointers.md': lesson('name: Smart pointers\nlesson_type: text', smartPointers),
    'rust/ch15/02-vectors.md': lesson('name: Vectors\nlesson_type: text', vectors()),
    'rust/ch15/03-slices.md': lesson('name: Slices\nlesson_type: text\nis_published: false', 'Coming soon: [vectors](02-vectors.md).'),
    ...extra,
  });
}

describe('nothing vanishes silently (validate)', () => {
  it('warns once per swallowed element name, passes generics in code, flags a link to a draft', async () => {
    const dir = await repo(SETTINGS);
    const r = await runCli(['validate', dir], { NO_COLOR: '1' });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => !l.startsWith('  '));
    expect(lines.filter(Boolean)).toEqual([
      'rust/ch15/01-smart-pointers.md:7:6 warning <T> is not an HTML element, yet a browser reads it as one: learners see nothing of it [lesson/unknown-element]',
      'rust/ch15/01-smart-pointers.md:7:44 warning <ENTER> is not an HTML element, yet a browser reads it as one: learners see nothing of it [lesson/unknown-element]',
      // One line per element name, at its first tag, however many tags (mdBook's <Listing> wraps every listing).
      'rust/ch15/01-smart-pointers.md:19:1 warning <Listing number="15-1" file-name="src/m… is not an HTML element, yet a browser reads it as one: learners see nothing of it (nor of the 3 other <Listing> tags of this lesson) [lesson/unknown-element]',
      'rust/ch15/02-vectors.md:144:5 warning the link goes to rust/ch15/03-slices.md, a draft (is_published: false): learners of this published lesson cannot open it [lesson/link-to-draft]',
    ]);
    expect(r.stderr).toContain('  hint: put it in backticks (`Box<T>`), or write its < as &lt; (Box&lt;T>), so learners see it');
    expect(r.stdout).toMatch(/4 warnings/);
  });

  it('one diagnostic per missing setting, with the count of references and files', async () => {
    const images = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`rust/ch15/img/fig${i}.svg`, `<svg xmlns="http://www.w3.org/2000/svg"><text>${i}</text></svg>`]));
    const figures = (from: number) => Array.from({ length: 3 }, (_, i) => `![figure ${from + i}](img/fig${from + i}.svg)`).join('\n\n');
    const dir = await repo('ignore:\n  - drafts/\n  - "*.bak"\n', {
      ...images,
      'rust/ch15/04-figures.md': lesson('name: Figures\nlesson_type: text', `# Figures\n\n${figures(0)}\n\nBack to [smart pointers](01-smart-pointers.md).\n`),
      'rust/ch15/05-more.md': lesson('name: More figures\nlesson_type: text', `# More\n\n${figures(3)}\n`),
      'drafts/notes.md': '# Notes\n',
    });
    const r = await runCli(['validate', dir], { NO_COLOR: '1' });
    expect(r.code).toBe(1);
    const found = r.stderr.split('\n').filter((l) => /\[(lesson\/needs-|config\/)/.test(l));
    expect(found).toEqual([
      'coursesync.yaml:3:5 warning the `ignore:` pattern "*.bak" matches no file of the repo [config/ignore-unmatched]',
      'rust/ch15/01-smart-pointers.md:17:7 error coursesync.yaml sets no school.lesson_url, and 4 links to lessons in 4 files need it (this is the first) [lesson/needs-lesson-url]',
      'rust/ch15/04-figures.md:7:1 error coursesync.yaml sets no assets.base_url, and 6 images and files in 2 files need it (this is the first) [lesson/needs-assets-url]',
    ]);
  });
});
