import { describe, expect, it } from 'vitest';
import { DEFAULT_LESSON_FIELDS, type LessonFields } from '../../src/model/desired.js';
import { diffFields, withFieldChanges } from '../../src/plan/diff-fields.js';

const base: LessonFields = { ...DEFAULT_LESSON_FIELDS, name: 'Welcome', body: '<p>Hi</p>' };

describe('withFieldChanges is the inverse of diffFields', () => {
  const cases: Array<[string, LessonFields | null, LessonFields]> = [
    ['a create from nothing', null, { ...base, drip_delay: 3, settings_embed_host_a: 'abc' }],
    ['a rename', base, { ...base, name: 'Welcome!' }],
    ['a video source switched', { ...base, settings_embed_host_a: 'abc' }, { ...base, settings_embed_host_b: '123' }],
    ['a body cleared and a lock set', base, { ...base, body: '', is_progression_locked: true }],
    ['nothing changed', base, base],
  ];
  it.each(cases)('%s', (_name, before, after) => {
    const changes = diffFields(before, after);
    expect(withFieldChanges(before ?? DEFAULT_LESSON_FIELDS, changes)).toEqual(after);
  });

  it('ignores changes of fields that are not lesson inputs', () => {
    const got = withFieldChanges(base, [{ field: 'position', before: 1, after: 4 }]);
    expect(got).toEqual(base);
    expect(got).not.toBe(base);
  });
});
