import { describe, expect, it } from 'vitest';
import { diffCourse, type LiveLesson } from '../../src/plan/diff-course.js';
import { PlanSchema, type PlanChange } from '../../src/plan/plan-schema.js';
import { responseRecord } from '../../src/model/state/hash-response.js';
import { appliedOf } from '../../src/model/state/fingerprint.js';
import type { CourseConfig } from '../../src/model/config.js';
import { desiredOf, fieldsOf, sectionIdsOf, stateOf } from './build-course.js';

type Programs = Parameters<typeof desiredOf>[0];

/** Compact view of a change: what a reader of the plan cares about. */
const view = (c: PlanChange) => ({
  action: c.action,
  key: c.key,
  section_id: c.section_id,
  position: c.position,
  ...('request' in c ? { request: c.request } : {}),
});

describe('diffCourse: every step type', () => {
  const cases: Array<{
    name: string;
    before: Programs;
    after: Programs;
    config?: Partial<CourseConfig>;
    over?: Parameters<typeof stateOf>[1];
    want: Array<ReturnType<typeof view>>;
  }> = [
    {
      name: 'create in an empty section: all fields, explicit position',
      before: {},
      after: { p: { s1: ['a'] } },
      want: [
        {
          action: 'create',
          key: 'a',
          section_id: 's1',
          position: 1,
          request: { section_id: 's1', position: 1, content_format: 'html', name: 'Lesson a', lesson_type: 'text', drip_delay: 0, is_published: true, is_progression_locked: false, body: '<p>Body of a</p>' },
        },
      ],
    },
    {
      name: 'update sends only the changed fields and keeps the place',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a', { key: 'b', fields: { name: 'Bee', drip_delay: 3 } }] } },
      want: [{ action: 'update', key: 'b', section_id: 's1', position: 2, request: { name: 'Bee', drip_delay: 3 } }],
    },
    {
      name: 'a body change carries content_format html',
      before: { p: { s1: ['a'] } },
      after: { p: { s1: [{ key: 'a', fields: { body: '<p>new</p>' } }] } },
      want: [{ action: 'update', key: 'a', section_id: 's1', position: 1, request: { body: '<p>new</p>', content_format: 'html' } }],
    },
    {
      name: 'a new video source is sent alone (the server clears the old one)',
      before: { p: { s1: [{ key: 'v', fields: { lesson_type: 'video', settings_embed_host_a: 'abc' } }] } },
      after: { p: { s1: [{ key: 'v', fields: { lesson_type: 'video', settings_embed_host_b: 'xyz' } }] } },
      want: [{ action: 'update', key: 'v', section_id: 's1', position: 1, request: { settings_embed_host_b: 'xyz' } }],
    },
    {
      name: 'a removed video source with no replacement is sent as null',
      before: { p: { s1: [{ key: 'v', fields: { lesson_type: 'video', settings_embed_code: '<video></video>' } }] } },
      after: { p: { s1: [{ key: 'v', fields: { lesson_type: 'video' } }] } },
      want: [{ action: 'update', key: 'v', section_id: 's1', position: 1, request: { settings_embed_code: null } }],
    },
    {
      name: 'move to another section with a field change in the same call',
      before: { p: { s1: ['a', 'b'], s2: ['c'] } },
      after: { p: { s1: ['a'], s2: ['c', { key: 'b', fields: { is_published: false } }] } },
      want: [{ action: 'move', key: 'b', section_id: 's2', position: 2, request: { is_published: false, position: 2, section_id: 's2' } }],
    },
    {
      name: 'rename through aliases keeps the remote lesson (no call when nothing else changed)',
      before: { p: { s1: ['a', 'old'] } },
      after: { p: { s1: ['a', { key: 'new', aliases: ['old'], fields: { name: 'Lesson old', body: '<p>Body of old</p>' } }] } },
      want: [],
    },
    {
      name: 'removed lesson, policy keep: orphan, no call',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a'] } },
      want: [{ action: 'orphan', key: 'b', section_id: 's1', position: 2 }],
    },
    {
      name: 'removed lesson, policy unpublish: PATCH is_published false in place',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a'] } },
      config: { removed_lessons: 'unpublish' },
      want: [{ action: 'unpublish', key: 'b', section_id: 's1', position: 2, request: { is_published: false } }],
    },
    {
      name: 'removed lesson, unpublish with archive: moved last into the archive section',
      before: { p: { s1: ['a', 'b'] }, arch: { s_arch: ['z'] } },
      after: { p: { s1: ['a'] } },
      config: { removed_lessons: 'unpublish', archive: 's_arch' },
      // z was archived by an earlier apply: nothing more to do for it.
      over: { z: { applied: fieldsOf('z', { is_published: false }) } },
      want: [{ action: 'unpublish', key: 'b', section_id: 's_arch', position: 2, request: { is_published: false, section_id: 's_arch', position: 0 } }],
    },
    {
      name: 'an interrupted create is uncertain and is not created again',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a', 'b'] } },
      over: { b: { id: null, position: null, uncertain: { name: 'Lesson b', section_id: 's1', since: '2026-01-01T00:00:00.000Z' } } },
      want: [{ action: 'uncertain', key: 'b', section_id: 's1', position: null }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const desired = desiredOf(c.after, c.config);
      const p = diffCourse(desired, stateOf(c.before, c.over), { sectionIds: sectionIdsOf(desired) });
      expect(p.changes.map(view)).toEqual(c.want);
      expect(PlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
    });
  }

  it('field changes name before and after (inputs compared with last-applied inputs)', () => {
    const desired = desiredOf({ p: { s1: [{ key: 'a', fields: { name: 'After' } }] } });
    const p = diffCourse(desired, stateOf({ p: { s1: [{ key: 'a', fields: { name: 'Before' } }] } }), { sectionIds: sectionIdsOf(desired) });
    expect(p.changes[0]?.fields).toEqual([{ field: 'name', before: 'Before', after: 'After' }]);
    expect(p.summary).toMatchObject({ update: 1, unchanged: 0 });
  });

  it('drift: live response differs from the last response, per field; the repo wins: an update sends its value back', () => {
    const applied = fieldsOf('a');
    const lastResponse = { ...applied, section_id: 's1', position: 1 };
    const state = stateOf({ p: { s1: ['a'] } }, { a: { response: responseRecord(lastResponse, appliedOf(applied)) } });
    const liveValues = { ...lastResponse, name: 'Edited in the UI' };
    const live = new Map<string, LiveLesson>([
      ['a', { id: 'id_a', section_id: 's1', position: 1, response: responseRecord(liveValues, appliedOf(applied)), values: liveValues }],
    ]);
    const desired = desiredOf({ p: { s1: ['a'] } });
    const p = diffCourse(desired, state, { sectionIds: sectionIdsOf(desired), live });
    expect(p.changes.map(view)).toEqual([
      { action: 'update', key: 'a', section_id: 's1', position: 1, request: { name: 'Lesson a' } },
      { action: 'drift', key: 'a', section_id: 's1', position: 1 },
    ]);
    expect(p.changes[0]?.fields).toEqual([{ field: 'name', before: 'Edited in the UI', after: 'Lesson a' }]);
    expect(p.changes[1]?.fields).toEqual([{ field: 'name', before: 'Lesson a', after: 'Edited in the UI' }]);
    expect(p.summary).toMatchObject({ update: 1, drift: 1, unchanged: 0 });
    expect(p.refreshed).toBe(true);
  });

  it('a create left pending by a killed apply is uncertain, never created again blindly', () => {
    const desired = desiredOf({ p: { s1: ['a', 'b'] } });
    const state = stateOf({ p: { s1: ['a'] } });
    state.pending['create:b'] = {
      action: 'create',
      key: 'b',
      lesson_id: null,
      request: 'POST /lessons',
      fields: ['name', 'section_id'],
      started_at: '2026-01-01T00:00:00.000Z',
      name: 'Lesson b',
      section_id: 's1',
    };
    const p = diffCourse(desired, state, { sectionIds: sectionIdsOf(desired) });
    expect(p.changes.map(view)).toEqual([{ action: 'uncertain', key: 'b', section_id: 's1', position: null }]);
    expect(p.changes[0]).toMatchObject({ name: 'Lesson b', since: '2026-01-01T00:00:00.000Z', hint: expect.stringMatching(/coursesync import <lesson id> --key b.*--recreate b/) });
    expect(p.summary).toMatchObject({ uncertain: 1, create: 0, unchanged: 1 });
  });

  it('with live data, a lesson moved in the UI is drift and positions are planned from where it really is', () => {
    const last = (k: string, position: number) => ({ ...fieldsOf(k), section_id: 's1', position });
    const state = stateOf(
      { p: { s1: ['a', 'b', 'c'], s2: { d: 5 } } },
      {
        a: { response: responseRecord(last('a', 1), appliedOf(fieldsOf('a'))) },
        b: { response: responseRecord(last('b', 2), appliedOf(fieldsOf('b'))) },
        c: { response: responseRecord(last('c', 3), appliedOf(fieldsOf('c'))) },
        // d answered position 1 when it was created; later creates shifted it to 5 (as state says).
        d: { response: responseRecord({ ...fieldsOf('d'), section_id: 's2', position: 1 }, appliedOf(fieldsOf('d'))) },
      },
    );
    // Someone dragged c to the front in the school: live order c, a, b.
    const live = new Map<string, LiveLesson>(
      (
        [
          ['a', 2],
          ['b', 3],
          ['c', 1],
        ] as const
      ).map(([k, position]) => {
        const values = last(k, position);
        return [k, { id: `id_${k}`, section_id: 's1', position, response: responseRecord(values, appliedOf(fieldsOf(k))), values }];
      }),
    );
    const dLive = { ...fieldsOf('d'), section_id: 's2', position: 5 };
    live.set('d', { id: 'id_d', section_id: 's2', position: 5, response: responseRecord(dLive, appliedOf(fieldsOf('d'))), values: dLive });
    const desired = desiredOf({ p: { s1: ['a', 'b', 'c'], s2: ['d'] } });
    const p = diffCourse(desired, state, { sectionIds: sectionIdsOf(desired), live });
    // Positions are compared with the state, not the last response: d was only shifted by later
    // calls (no drift); in s1 c was dragged to the front, so all three moved.
    expect(p.changes.filter((c) => c.action === 'drift').map((c) => [c.key, c.fields])).toEqual([
      ['a', [{ field: 'position', before: 1, after: 2 }]],
      ['b', [{ field: 'position', before: 2, after: 3 }]],
      ['c', [{ field: 'position', before: 3, after: 1 }]],
    ]);
    // One call puts c back after b.
    expect(p.changes.filter((c) => c.action === 'move').map((c) => [c.key, c.request])).toEqual([['c', { position: 4 }]]);
  });

  it('a section given by name must be resolved first', () => {
    const desired = desiredOf({ p: { s1: ['a'] } });
    desired.programs[0]!.sections[0]!.ref = { name: 'Getting started' };
    expect(() => diffCourse(desired, stateOf({}), { sectionIds: new Map() })).toThrow(/given by name/);
  });

  it('records what the plan was made from', () => {
    const desired = desiredOf({ p: { s1: ['a'] } });
    const p = diffCourse(desired, stateOf({}), { sectionIds: sectionIdsOf(desired) });
    expect(p.state).toEqual({ lineage: '00000000-0000-4000-8000-000000000000', serial: 3 });
    expect(p.desired_digest).toBe(desired.digest);
    expect(p.summary).toEqual({ create: 1, update: 0, move: 0, unpublish: 0, orphan: 0, drift: 0, uncertain: 0, unchanged: 0 });
  });
});
