import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { compileCourse } from '../../src/compile/index.js';
import type { SourceTree } from '../../src/model/source-tree.js';
import { loadCourse } from '../../src/load/load-course.js';
import { readSource } from '../../src/source/read-source.js';

const repo = (name: string) => fileURLToPath(new URL(`../fixtures/repos/${name}/`, import.meta.url));

/** `path:line:col severity code`: everything a diagnostic's place and identity say. */
const brief = (d: Diagnostic) => `${placeOf(d)} ${d.severity} ${d.code}`;

describe('compileCourse on invalid fixture repos: exactly the expected diagnostics', () => {
  const cases: Array<{ repo: string; counts: [number, number, number]; want: string[] }> = [
    {
      repo: 'yaml-errors',
      counts: [1, 2, 3],
      want: [
        'p/program.yaml:2:1 error yaml/duplicate-key',
        'p/s/section.yaml:2:1 error yaml/syntax',
        'p/t/01-tag.md:2:7 error yaml/unknown-tag',
        'p/t/02-bomb.md:1:1 error yaml/alias-limit',
        'p/t/03-list.md:1:1 error yaml/not-a-mapping',
      ],
    },
    {
      repo: 'fields',
      counts: [1, 1, 11],
      want: [
        'p/s/-my-lesson.md error lesson/invalid-key', // a name with spaces gives its words (my-lesson); one opening with - gives no key
        'p/s/01-unknown.md:2:1 error lesson/unknown-key',
        'p/s/01-unknown.md:5:3 error lesson/unknown-key',
        'p/s/02-missing-name.md:2:1 error lesson/no-name', // 03-no-front-matter.md is named by its heading
        'p/s/04-bad-values.md:2:7 error lesson/invalid-field',
        'p/s/04-bad-values.md:3:13 error lesson/invalid-field',
        'p/s/04-bad-values.md:4:15 error lesson/invalid-field',
        'p/s/04-bad-values.md:5:14 error lesson/invalid-field',
        'p/s/05-float.md:3:13 error lesson/invalid-field',
        'p/s/05-float.md:4:24 error lesson/invalid-field',
        'p/s/06-long-name.md:2:7 error lesson/invalid-field',
        'p/s/08-unclosed.md:1:1 error lesson/front-matter-unclosed',
        'p/s/09-empty.md error file/empty',
        'p/s/11-bad-key.md:3:6 error lesson/invalid-field',
      ],
    },
    {
      repo: 'video-rules',
      counts: [1, 1, 5],
      want: [
        'p/s/01-text-with-video.md:4:1 error lesson/video-not-allowed',
        'p/s/02-two-sources.md:3:1 error lesson/video-sources',
        'p/s/03-no-source.md:3:1 error lesson/video-sources',
        'p/s/04-embed-on-video.md:3:1 error lesson/embed-code-not-allowed',
        'p/s/05-bad-url.md:4:11 error lesson/video-url',
      ],
    },
    {
      repo: 'forbidden-html',
      counts: [1, 1, 2],
      want: [
        'p/s/01-markdown.md:4:14 error lesson/forbidden-html', // <object> in the description
        'p/s/01-markdown.md:8:6 error lesson/forbidden-html', // inline <SCRIPT>
        'p/s/01-markdown.md:11:6 error lesson/forbidden-html', // <IfRaMe> nested in a block
        'p/s/01-markdown.md:20:1 error lesson/forbidden-html', // signed attachment (the unsigned one passes)
        'p/s/01-markdown.md:23:1 warning lesson/event-handler',
        'p/s/01-markdown.md:23:45 warning lesson/javascript-url',
        'p/s/02-html.md:8:8 error lesson/forbidden-html', // <embed> in an html-format body
        'p/s/02-html.md:11:1 warning lesson/javascript-url',
      ],
    },
    {
      repo: 'keys',
      counts: [1, 2, 4],
      want: [
        // The two 01-intro.md are a.intro and b.intro (a repeated file name), so only "old" is used twice.
        'p/b/03-old.md error repo/duplicate-key',
      ],
    },
    {
      repo: 'lessons-list',
      counts: [1, 1, 3],
      want: [
        'p/s/section.yaml:2:1 error section/lessons-list-missing',
        'p/s/section.yaml:2:1 error section/lessons-list-missing',
        'p/s/section.yaml:4:5 error section/lessons-list-duplicate',
        'p/s/section.yaml:5:5 error section/lessons-list-unknown',
      ],
    },
    {
      repo: 'layout',
      counts: [1, 1, 1],
      want: [
        'orphan/section.yaml error repo/section-outside-program',
        'p/group/deep/section.yaml error repo/section-outside-program',
        'p/inner/program.yaml error repo/nested-program',
        'p/no-yaml error section/missing-yaml',
        'p/notes.md warning repo/stray-markdown',
        'p/s/extra/01-deep.md warning repo/nested-lesson-folder',
      ],
    },
    {
      repo: 'section-refs',
      counts: [2, 4, 0],
      want: [
        'p/both/section.yaml:2:1 error section/id-or-name',
        'p/empty/section.yaml error file/empty',
        'p/neither/section.yaml:1:1 error section/id-or-name',
        'p/program.yaml:3:1 error program/unknown-key',
        'q/program.yaml:1:1 error program/missing-field',
      ],
    },
    {
      repo: 'config',
      counts: [1, 1, 1],
      want: [
        'coursesync.yaml:2:13 error config/invalid-field',
        'coursesync.yaml:4:3 error config/unknown-key',
        'coursesync.yaml:5:18 error config/invalid-field',
      ],
    },
  ];
  for (const c of cases) {
    it(c.repo, async () => {
      const result = await loadCourse(repo(c.repo));
      expect(result.diagnostics.map(brief)).toEqual(c.want);
      expect(result.desired).toBeUndefined();
      expect([result.counts.programs, result.counts.sections, result.counts.lessons]).toEqual(c.counts);
    });
  }
});

describe('messages and hints', () => {
  const cases: Array<{ repo: string; place: string; message: string; hint?: string }> = [
    { repo: 'fields', place: 'p/s/01-unknown.md:2:1', message: 'unknown key "nmae"', hint: 'did you mean "name"?' },
    { repo: 'fields', place: 'p/s/01-unknown.md:5:3', message: 'unknown key "hots_a" in "video"', hint: 'did you mean "host_a"?' },
    { repo: 'fields', place: 'p/s/02-missing-name.md:2:1', message: 'lesson has no `name:` in its front-matter and no heading to take its name from' },
    { repo: 'fields', place: 'p/s/04-bad-values.md:5:14', message: '"lesson_type" must be one of "video", "text", "pdf", "embed", "audio", not "vidoe"', hint: 'did you mean "video"?' },
    { repo: 'fields', place: 'p/s/04-bad-values.md:3:13', message: '"drip_delay" must be at most 32767' },
    { repo: 'fields', place: 'p/s/05-float.md:3:13', message: '"drip_delay" must be an integer, not the number 1.5' },
    { repo: 'fields', place: 'p/s/06-long-name.md:2:7', message: '"name" is longer than 255 characters' },
    { repo: 'keys', place: 'p/b/03-old.md', message: 'key "old" is also used by p/b/02-other.md' },
    { repo: 'lessons-list', place: 'p/s/section.yaml:5:5', message: '"thre" in lessons is not a lesson of this folder', hint: 'did you mean "three"?' },
    { repo: 'video-rules', place: 'p/s/02-two-sources.md:3:1', message: '"video" has 2 video sources (host_a, host_c); it needs exactly one' },
    { repo: 'forbidden-html', place: 'p/s/01-markdown.md:8:6', message: 'a <script> tag is not allowed in a lesson' },
    { repo: 'yaml-errors', place: 'p/t/01-tag.md:2:7', message: 'Unresolved tag: !secret' },
  ];
  for (const c of cases) {
    it(`${c.place}: ${c.message}`, async () => {
      const result = await loadCourse(repo(c.repo));
      const d = result.diagnostics.find((x) => placeOf(x) === c.place && x.message === c.message);
      expect(d, result.diagnostics.map((x) => `${placeOf(x)} ${x.message}`).join('\n')).toBeDefined();
      if (c.hint) expect(d?.hint).toBe(c.hint);
      expect(d?.message).not.toMatch(/^Error/);
    });
  }
});

describe('a valid repo', () => {
  it('has no diagnostics and a desired state with every field as sent', async () => {
    const result = await loadCourse(repo('valid'));
    expect(result.diagnostics).toEqual([]);
    expect(result.counts).toEqual({ programs: 1, sections: 2, lessons: 6 });
    const desired = result.desired;
    if (!desired) throw new Error('expected a desired state');
    expect(desired.config).toEqual({ school: { base_url: 'http://127.0.0.1:4010/api/v1' }, removed_lessons: 'unpublish', archive: 'sec_archive' });
    expect(desired.digest).toMatch(/^[0-9a-f]{64}$/);
    const [program] = desired.programs;
    expect(program?.id).toBe('prog_1');
    expect(program?.name).toBe('Program one');
    expect(program?.sections.map((s) => [s.path, s.ref])).toEqual([
      ['p/a', { id: 'sec_a' }],
      ['p/b', { name: 'Second section' }],
    ]);
    // Natural file order: 1_one, 2-two, 10-ten; the `lessons:` list orders the second section.
    expect(program?.sections[0]?.lessons.map((l) => l.key)).toEqual(['first', 'two', 'ten']);
    expect(program?.sections[1]?.lessons.map((l) => l.key)).toEqual(['z-last', 'html-body', 'embed']);

    const one = program?.sections[0]?.lessons[0];
    expect(one).toMatchObject({ key: 'first', aliases: ['uno', 'eins'], copied_from: 'elsewhere', path: 'p/a/1_one.md' });
    expect(one?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(one?.fields).toEqual({
      name: 'One',
      lesson_type: 'video',
      drip_delay: 0,
      is_published: true,
      is_progression_locked: false,
      description: '<p><em>Short</em> intro</p>\n',
      // The leading "# One" is the lesson's name: the school shows it above the body.
      body: '<blockquote>\n<p>quoted</p>\n</blockquote>\n',
      settings_embed_host_a: null,
      settings_embed_host_b: null,
      settings_embed_host_c: null,
      settings_embed_host_d: null,
      settings_embed_code: '<video src="x.mp4"></video>',
      embed_code: null,
    });
    expect(program?.sections[0]?.lessons[1]?.fields).toMatchObject({
      name: 'Two',
      drip_delay: 5,
      is_progression_locked: true,
      settings_embed_host_b: 'https://vimeo.com/123456',
      settings_embed_code: null,
    });
    const [zLast, html, embed] = program?.sections[1]?.lessons ?? [];
    expect(zLast?.fields).toMatchObject({ lesson_type: 'audio', is_published: false, description: '' });
    expect(html?.fields).toMatchObject({ lesson_type: 'pdf', body: '<p>Raw <em>HTML</em></p>\n' });
    // An iframe is fine in embed_code: the school's rule is about bodies.
    expect(embed?.fields).toMatchObject({ lesson_type: 'embed', embed_code: '<iframe src="https://x.example"></iframe>', body: '' });
    expect(embed?.fields.settings_embed_host_a).toBeNull();
  });

  it('gives the same digest on every run, and a different one when the order changes', async () => {
    const tree = await readSource(repo('valid'));
    const a = compileCourse(tree);
    expect(compileCourse(tree).desired?.digest).toBe(a.desired?.digest);
    const reordered: SourceTree = {
      ...tree,
      sections: tree.sections.map((f) => (f.path === 'p/b/section.yaml' ? { ...f, text: f.text.replace('  - z-last\n  - html-body\n', '  - html-body\n  - z-last\n') } : f)),
    };
    const b = compileCourse(reordered);
    expect(b.diagnostics).toEqual([]);
    expect(b.desired?.programs[0]?.sections[1]?.lessons.map((l) => l.key)).toEqual(['html-body', 'z-last', 'embed']);
    expect(b.desired?.digest).not.toBe(a.desired?.digest);
  });

  it('renders through the given renderer (the hook for a render cache)', async () => {
    const tree = await readSource(repo('valid'));
    const seen: string[] = [];
    const result = compileCourse(tree, {
      render: (md) => {
        seen.push(md);
        return { html: `<cached>${md.length}</cached>`, problems: [], anchors: [], refs: [] };
      },
    });
    // Markdown bodies (5; one lesson is html-format) and the one description.
    expect(seen).toHaveLength(6);
    const one = result.desired?.programs[0]?.sections[0]?.lessons[0];
    expect(one?.fields.body).toBe('<cached>16</cached>'); // '# One\n\n> quoted\n' is 16 characters
    expect(one?.fields.description).toBe('<cached>13</cached>');
  });

  it('an empty folder is an error (a plan of nothing must not pass as "No changes")', async () => {
    const result = await loadCourse(repo('empty'));
    expect(result.diagnostics.map(brief)).toEqual(['. error repo/no-programs']);
    expect(result.desired).toBeUndefined();
  });
});
