import { describe, expect, it } from 'vitest';
import { digestChange, lessonDigest, lessonSettings, type LessonBuildInputs } from '../../src/compile/lesson-digest.js';
import { DEFAULT_CONFIG } from '../../src/model/config.js';

const config = { ...DEFAULT_CONFIG, assets: { base_url: 'https://cdn.example.com/course/' }, school: { lesson_url: 'https://school.example.com/p/{program_id}/l/{lesson_id}' } };
const build = (over: Partial<LessonBuildInputs> = {}): LessonBuildInputs => ({
  file: 'a'.repeat(64),
  settings: lessonSettings({ lesson_type: 'text' }, config, true),
  deps: [
    { path: 'intro/start/img/loop.png', kind: 'file', digest: 'b'.repeat(64) },
    { path: 'intro/start/2-lists.md', kind: 'lesson', digest: 'c'.repeat(64) },
  ],
  ...over,
});
const places = new Map([['intro/start/2-lists.md', 'prog_intro/les_2']]);
const placeOf = (p: string) => places.get(p);

describe('lesson digest', () => {
  it('is 32 hex, stable, and says which part changed', () => {
    const d = lessonDigest('intro/start/1-loops.md', build(), placeOf);
    expect(d).toMatch(/^[0-9a-f]{32}$/);
    expect(lessonDigest('intro/start/1-loops.md', build(), placeOf)).toBe(d);
    expect(digestChange(d, d)).toBeUndefined();
    expect(digestChange(d, lessonDigest('intro/start/1-loops.md', build({ file: 'f'.repeat(64) }), placeOf))).toBe('file');
    expect(digestChange(d, lessonDigest('intro/start/01-loops.md', build(), placeOf))).toBe('file');
    const image = build();
    image.deps[0] = { ...image.deps[0]!, digest: 'd'.repeat(64) };
    expect(digestChange(d, lessonDigest('intro/start/1-loops.md', image, placeOf))).toBe('references');
    expect(digestChange(d, lessonDigest('intro/start/1-loops.md', build(), () => 'prog_intro/les_99'))).toBe('references');
    const moved = lessonSettings({ lesson_type: 'text' }, { ...config, assets: { base_url: 'https://cdn2.example.com/' } }, true);
    expect(digestChange(d, lessonDigest('intro/start/1-loops.md', build({ settings: moved }), placeOf))).toBe('settings');
    expect(digestChange(d, lessonDigest('intro/start/1-loops.md', build({ settings: lessonSettings({ lesson_type: 'video' }, config, true) }), placeOf))).toBe('settings');
  });

  it('settings: the references part only matters to a lesson with references; the order of defaults does not', () => {
    expect(lessonSettings({ lesson_type: 'text' }, config, false)).toBe(lessonSettings({ lesson_type: 'text' }, DEFAULT_CONFIG, false));
    expect(lessonSettings({ lesson_type: 'text' }, config, true)).not.toBe(lessonSettings({ lesson_type: 'text' }, DEFAULT_CONFIG, true));
    expect(lessonSettings({ lesson_type: 'text', drip_delay: 2 }, config, false)).toBe(lessonSettings({ drip_delay: 2, lesson_type: 'text' }, config, false));
  });
});
