import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from '../../src/source/split-front-matter.js';

describe('splitFrontMatter', () => {
  const cases: Array<{ name: string; text: string; fm: { text: string; line: number; toml?: true } | null; unclosed?: boolean; body: { text: string; line: number } }> = [
    { name: 'front-matter and body', text: '---\nname: A\n---\n# Body\n', fm: { text: '\nname: A', line: 1 }, body: { text: '# Body\n', line: 4 } },
    { name: 'no front-matter', text: '# Body\n', fm: null, body: { text: '# Body\n', line: 1 } },
    { name: 'empty body', text: '---\nname: A\n---\n', fm: { text: '\nname: A', line: 1 }, body: { text: '', line: 4 } },
    { name: 'blank line before body keeps its line', text: '---\nname: A\n---\n\nText\n', fm: { text: '\nname: A', line: 1 }, body: { text: '\nText\n', line: 4 } },
    { name: 'unclosed', text: '---\nname: A\nText\n', fm: { text: '\nname: A\nText\n', line: 1 }, unclosed: true, body: { text: '', line: 4 } },
    { name: 'the closing line may end in blanks', text: '---\nname: A\n--- \t\nText\n', fm: { text: '\nname: A', line: 1 }, body: { text: 'Text\n', line: 4 } },
    { name: 'the opening line may end in blanks', text: '--- \nname: A\n---\nText\n', fm: { text: '\nname: A', line: 1 }, body: { text: 'Text\n', line: 4 } },
    { name: 'a longer rule inside does not close it', text: '---\nname: A\n----\n---\nText\n', fm: { text: '\nname: A\n----', line: 1 }, body: { text: 'Text\n', line: 5 } },
    { name: 'no newline after the closing line', text: '---\nname: A\n---', fm: { text: '\nname: A', line: 1 }, body: { text: '', line: 3 } },
    { name: 'four dashes open nothing', text: '----\nname: A\n---\n', fm: null, body: { text: '----\nname: A\n---\n', line: 1 } },
    { name: 'TOML between +++ lines (Hugo, Zola)', text: '+++\ntitle = "A"\n+++\n# Body\n', fm: { text: '\ntitle = "A"', line: 1, toml: true }, body: { text: '# Body\n', line: 4 } },
    { name: 'TOML is closed by +++ only', text: '+++\ntitle = "A"\n---\n+++\nText\n', fm: { text: '\ntitle = "A"\n---', line: 1, toml: true }, body: { text: 'Text\n', line: 5 } },
    { name: 'TOML unclosed', text: '+++\ntitle = "A"\n', fm: { text: '\ntitle = "A"\n', line: 1, toml: true }, unclosed: true, body: { text: '', line: 3 } },
    { name: 'YAML is not closed by +++', text: '---\nname: A\n+++\n---\nText\n', fm: { text: '\nname: A\n+++', line: 1 }, body: { text: 'Text\n', line: 5 } },
    { name: 'a thematic break later is not front-matter', text: 'Text\n\n---\n\nMore\n', fm: null, body: { text: 'Text\n\n---\n\nMore\n', line: 1 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = splitFrontMatter(c.text);
      expect(got.frontMatter).toEqual(c.fm);
      expect(got.frontMatterUnclosed).toBe(c.unclosed ?? false);
      expect(got.body).toEqual(c.body);
    });
  }
});
