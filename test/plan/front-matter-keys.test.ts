/**
 * Plans name fields by front-matter key: FRONT_MATTER_KEY must say where compile-lesson takes
 * each field from. Each front-matter value is compiled and must land in exactly the API field
 * the mapping names.
 */
import { describe, expect, it } from 'vitest';
import { compileLesson } from '../../src/compile/compile-lesson.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { splitFrontMatter } from '../../src/source/split-front-matter.js';
import { FRONT_MATTER_KEY } from '../../src/model/front-matter-keys.js';
import { DEFAULT_LESSON_FIELDS, LESSON_FIELDS } from '../../src/school-api/school-rules.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { fieldLabel } from '../../src/plan/source-diff.js';

function compiled(frontMatter: string, body = 'A [link](https://example.com) and a list:\n\n- one\n- two\n') {
  const text = `---\n${frontMatter}\n---\n${body}`;
  const out: Diagnostic[] = [];
  const result = compileLesson({ path: 'p/s/01-x.md', text, digest: 'x', ...splitFrontMatter(text) }, out, renderMarkdown);
  expect(out.filter((d) => d.severity === 'error')).toEqual([]);
  return result.fields!;
}

describe('FRONT_MATTER_KEY', () => {
  it('covers every managed field', () => {
    expect(Object.keys(FRONT_MATTER_KEY).sort()).toEqual([...LESSON_FIELDS].sort());
  });

  it.each([
    ['video: host_a', 'lesson_type: video\nvideo:\n  host_a: dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['video: host_b', 'lesson_type: video\nvideo:\n  host_b: "76979871"', '76979871'],
    ['video: host_c', 'lesson_type: video\nvideo:\n  host_c: abc123xyz0', 'abc123xyz0'],
    ['video: host_d', 'lesson_type: video\nvideo:\n  host_d: 0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef'],
    ['video: embed_code', 'lesson_type: video\nvideo:\n  embed_code: <div class="player">v</div>', '<div class="player">v</div>'],
    ['embed_code', 'lesson_type: embed\nembed_code: <iframe src="https://example.com/quiz"></iframe>', '<iframe src="https://example.com/quiz"></iframe>'],
    ['drip_delay', 'lesson_type: text\ndrip_delay: 3', 3],
    ['is_published', 'lesson_type: text\nis_published: false', false],
    ['is_progression_locked', 'lesson_type: text\nis_progression_locked: true', true],
  ])('%s is the front-matter of the field it fills', (key, frontMatter, value) => {
    const fields = compiled(`name: Keys\n${frontMatter}`) as unknown as Record<string, unknown>;
    const filled = LESSON_FIELDS.filter((f) => f !== 'name' && f !== 'lesson_type' && f !== 'body' && fields[f] !== (DEFAULT_LESSON_FIELDS as unknown as Record<string, unknown>)[f]);
    expect(filled).toHaveLength(1);
    expect(fields[filled[0]!]).toBe(value);
    expect(fieldLabel(filled[0]!)).toBe(key);
  });

  it('section and position are named by where they come from', () => {
    expect(fieldLabel('section_id')).toBe('section');
    expect(fieldLabel('position')).toBe('position');
  });
});
