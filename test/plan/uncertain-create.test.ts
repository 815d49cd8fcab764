import { appliedOf } from '../../src/model/state/fingerprint.js';
import { describe, expect, it } from 'vitest';
import { uncertainCreateEntry } from '../../src/plan/uncertain-create.js';
import { fieldsOf } from './build-course.js';

describe('uncertainCreateEntry', () => {
  const repo = { program_id: 'prog_1', path: 'p/s/01-a.md', fields: fieldsOf('a') };

  it('keeps the repo lesson with the name that was sent, no id and no position', () => {
    const entry = uncertainCreateEntry({ key: 'a', name: 'Sent name', section_id: 'sec_1', since: '2026-01-01T00:00:00.000Z' }, repo);
    expect(entry).toEqual({
      id: null,
      program_id: 'prog_1',
      section_id: 'sec_1',
      position: null,
      path: 'p/s/01-a.md',
      applied: appliedOf({ ...repo.fields, name: 'Sent name' }),
      response: '',
      uncertain: { name: 'Sent name', section_id: 'sec_1', since: '2026-01-01T00:00:00.000Z' },
    });
  });

  it('names the lesson after the repo, else the key, when the record has no name', () => {
    expect(uncertainCreateEntry({ key: 'a', since: 't' }, repo).uncertain?.name).toBe('Lesson a');
    expect(uncertainCreateEntry({ key: 'gone', since: 't' }, undefined).uncertain).toEqual({ name: 'gone', section_id: '', since: 't' });
  });
});
