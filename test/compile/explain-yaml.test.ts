/** YAML mistakes explained in the author's terms: message, hint and a caret excerpt. */
import { describe, expect, it } from 'vitest';
import { compileLesson } from '../../src/compile/compile-lesson.js';
import { parseYaml } from '../../src/compile/parse-yaml.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { formatDiagnostic, placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { LessonSource } from '../../src/model/source-tree.js';

function problems(text: string, firstLine = 1): Diagnostic[] {
  const out: Diagnostic[] = [];
  parseYaml(text, 'p/s/01-quiz.md', out, firstLine);
  return out;
}

describe('YAML syntax mistakes', () => {
  const cases: Array<{ what: string; text: string; place: string; code: string; message: RegExp; hint: string }> = [
    {
      what: 'an unquoted colon in a value',
      text: 'name: Quiz: part 1\n',
      place: 'p/s/01-quiz.md:1:7',
      code: 'yaml/syntax',
      message: /value of "name" contains ": "/,
      hint: 'quote the value: name: "Quiz: part 1"',
    },
    {
      what: 'a value read as an alias',
      text: 'name: *important*\ndrip_delay: 2\n',
      place: 'p/s/01-quiz.md:1:7',
      code: 'yaml/unresolved-alias',
      message: /"\*important\*" is read as a YAML alias/,
      hint: 'quote the value: name: "*important*"',
    },
    {
      what: 'no space after the colon',
      text: 'lesson_type:text\nname: Intro\n',
      place: 'p/s/01-quiz.md:1:1',
      code: 'yaml/syntax',
      message: /no space after the colon/,
      hint: 'write a space after the colon: lesson_type: text',
    },
    {
      what: 'a reserved first character',
      text: 'name: @channel news\n',
      place: 'p/s/01-quiz.md:1:7',
      code: 'yaml/syntax',
      message: /starts with "@"/,
      hint: 'quote the value: name: "@channel news"',
    },
    {
      what: 'a tab as indentation',
      text: 'name: Intro\nvideo:\n\thost_a: abc\n',
      place: 'p/s/01-quiz.md:3:1',
      code: 'yaml/syntax',
      message: /tab indents this line/,
      hint: 'indent with spaces (two per level)',
    },
  ];
  for (const c of cases) {
    it(c.what, () => {
      const [d, ...rest] = problems(c.text);
      expect(rest).toEqual([]);
      expect(d && placeOf(d)).toBe(c.place);
      expect(d?.code).toBe(c.code);
      expect(d?.message).toMatch(c.message);
      expect(d?.hint).toBe(c.hint);
    });
  }

  it('numbers lines from where the front-matter starts, and shows the line with a caret', () => {
    const [d] = problems('name: Quiz: part 1\n', 2);
    expect(d && placeOf(d)).toBe('p/s/01-quiz.md:2:7');
    expect(d?.excerpt).toBe('2 | name: Quiz: part 1\n  |       ^');
    expect(formatDiagnostic(d!)).toBe(
      [
        'p/s/01-quiz.md:2:7 error the value of "name" contains ": " (a colon and a space), which YAML reads as the start of another key [yaml/syntax]',
        '    2 | name: Quiz: part 1',
        '      |       ^',
        '  hint: quote the value: name: "Quiz: part 1"',
      ].join('\n'),
    );
  });

  it('keeps "alias bomb" for real alias expansion, not for every message that mentions aliases', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', ''].join('\n');
    expect(problems(bomb).map((d) => d.code)).toEqual(['yaml/alias-limit']);
    expect(problems('name: *important*\n').map((d) => d.code)).toEqual(['yaml/unresolved-alias']);
    expect(problems('a: &x Intro\nname: *x\n')).toEqual([]);
  });
});

describe("other tools' front-matter keys", () => {
  function lessonHints(frontMatter: string): Record<string, string | undefined> {
    const text = `---\n${frontMatter}---\nBody.\n`;
    const source: LessonSource = {
      path: 'p/s/01-intro.md',
      text,
      digest: 'x',
      frontMatter: { text: frontMatter, line: 2 },
      frontMatterUnclosed: false,
      body: { text: 'Body.\n', line: frontMatter.split('\n').length + 2 },
    };
    const out: Diagnostic[] = [];
    compileLesson(source, out, renderMarkdown);
    return Object.fromEntries(out.filter((d) => d.code === 'lesson/unknown-key').map((d) => [/"(.*)"/.exec(d.message)?.[1] ?? '', d.hint]));
  }

  it('title, draft, type and weight get what coursesync calls them', () => {
    expect(lessonHints('title: Welcome\ndraft: true\ntype: text\nweight: 3\n')).toEqual({
      title: 'coursesync calls it "name": name: "Welcome"; or, to leave the files as they are, `lesson_defaults: { name_from: title }` in coursesync.yaml takes every lesson\'s title: as its name',
      draft: 'a draft is `is_published: false`',
      type: 'coursesync calls it "lesson_type": lesson_type: text',
      weight: 'lessons are ordered by file name (01-intro.md, 02-setup.md) or by `lessons:` in section.yaml: remove it',
    });
  });

  it('a typo still gets a spelling guess', () => {
    expect(lessonHints('name: Welcome\ndrip_dealy: 3\n')).toEqual({ drip_dealy: 'did you mean "drip_delay"?' });
  });
});

describe('repeated keys', () => {
  const brief = (text: string, firstLine = 1) => problems(text, firstLine).map((d) => `${placeOf(d)} ${d.code} ${d.message}`);

  it('are reported at each repetition, in nested and flow mappings too; keys of other types are other keys', () => {
    expect(brief('name: A\nvars:\n  a: 1\n  b: 2\n  a: 3\nname: B\n', 2)).toEqual([
      'p/s/01-quiz.md:6:3 yaml/duplicate-key Map keys must be unique',
      'p/s/01-quiz.md:7:1 yaml/duplicate-key Map keys must be unique',
    ]);
    expect(brief('tags: {x: 1, y: 2, x: 3}\n')).toEqual(['p/s/01-quiz.md:1:20 yaml/duplicate-key Map keys must be unique']);
    expect(brief('1: one\n"1": the string\nlessons:\n  - a: 1\n  - a: 2\n')).toEqual([]);
  });

  it('are found in one pass over a mapping: 200,000 keys, the last one a repetition', () => {
    // The YAML library's own check compared each key with every one before it: 16 s for
    // 40,000 keys, and a 10 MB file (the limit) holds 700,000.
    const lines = Array.from({ length: 200_000 }, (_, i) => `k${i}: ${i}`);
    lines.push('k7: again');
    expect(brief(`${lines.join('\n')}\n`)).toEqual(['p/s/01-quiz.md:200001:1 yaml/duplicate-key Map keys must be unique']);
  });
});
