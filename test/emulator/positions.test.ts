/** The position model of docs/architecture.md#plan on create, update and moves, asserted via /__emulator/state. */
import { describe, expect, it } from 'vitest';
import { call, createLesson, sectionOrder, useEmulator } from './helpers.js';

const ctx = useEmulator();

describe('positions', () => {
  it('creates append last; inserting at an occupied position shifts later lessons down', async () => {
    const a = await createLesson(ctx.emu, { name: 'A' });
    const b = await createLesson(ctx.emu, { name: 'B', position: 0 });
    const c = await createLesson(ctx.emu, { name: 'C', position: null });
    const x = await createLesson(ctx.emu, { name: 'X', position: 2 });
    expect(await sectionOrder(ctx.emu, 'sec_start')).toEqual([[a, 1], [x, 2], [b, 3], [c, 4]]);
  });

  it('inserting into a gap shifts nothing; creating past the end keeps the gap', async () => {
    const a = await createLesson(ctx.emu, { name: 'A' });
    const far = await createLesson(ctx.emu, { name: 'Far', position: 5 });
    const gap = await createLesson(ctx.emu, { name: 'Gap', position: 3 });
    const last = await createLesson(ctx.emu, { name: 'Last' });
    expect(await sectionOrder(ctx.emu, 'sec_start')).toEqual([[a, 1], [gap, 3], [far, 5], [last, 6]]);
  });

  it('update: omitted keeps the place, 0 goes last, p moves within the section leaving a gap', async () => {
    const a = await createLesson(ctx.emu, { name: 'A' });
    const b = await createLesson(ctx.emu, { name: 'B' });
    const c = await createLesson(ctx.emu, { name: 'C' });
    expect((await call(ctx.emu, 'PATCH', `/lessons/${b}`, { name: 'B2' })).body.position).toBe(2);
    expect((await call(ctx.emu, 'PATCH', `/lessons/${a}`, { position: 0 })).body.position).toBe(4);
    expect(await sectionOrder(ctx.emu, 'sec_start')).toEqual([[b, 2], [c, 3], [a, 4]]);
    expect((await call(ctx.emu, 'PATCH', `/lessons/${a}`, { position: 2 })).body.position).toBe(2);
    expect(await sectionOrder(ctx.emu, 'sec_start')).toEqual([[a, 2], [b, 3], [c, 4]]);
  });

  it('a move between sections goes last unless position is given and leaves a gap behind', async () => {
    const a = await createLesson(ctx.emu, { name: 'A' });
    const b = await createLesson(ctx.emu, { name: 'B' });
    const c = await createLesson(ctx.emu, { name: 'C' });
    const t1 = await createLesson(ctx.emu, { name: 'T1', section_id: 'sec_types' });
    const moved = await call(ctx.emu, 'PATCH', `/lessons/${b}`, { section_id: 'sec_types' });
    expect(moved.body).toMatchObject({ section_id: 'sec_types', position: 2 });
    expect(await sectionOrder(ctx.emu, 'sec_start')).toEqual([[a, 1], [c, 3]]);
    const front = await call(ctx.emu, 'PATCH', `/lessons/${c}`, { section_id: 'sec_types', position: 1, name: 'C moved' });
    expect(front.body).toMatchObject({ section_id: 'sec_types', position: 1, name: 'C moved' });
    expect(await sectionOrder(ctx.emu, 'sec_types')).toEqual([[c, 1], [t1, 2], [b, 3]]);
    // across programs: the key edits both, so the move is allowed
    const across = await call(ctx.emu, 'PATCH', `/lessons/${a}`, { section_id: 'sec_generics' });
    expect(across.body).toMatchObject({ section_id: 'sec_generics', position: 1 });
    expect(await sectionOrder(ctx.emu, 'sec_start')).toEqual([]);
  });

  it('moves keep content and steps', async () => {
    const a = await createLesson(ctx.emu, { name: 'A', body: '<p>body</p>' });
    const before = (await call(ctx.emu, 'GET', '/__emulator/state')).body.programs[0].sections[0].lessons[0].steps;
    await call(ctx.emu, 'PATCH', `/lessons/${a}`, { section_id: 'sec_tooling' });
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    const tooling = state.body.programs[0].sections.find((s: any) => s.id === 'sec_tooling');
    expect(tooling.lessons[0]).toMatchObject({ id: a, body: '<p>body</p>', steps: before });
  });

  it('a long sequence of inserts and moves matches the shared model', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await createLesson(ctx.emu, { name: `L${i}`, position: i % 2 === 0 ? 1 : 0 }));
    // L0..L5 created at 1, last, 1, last, 1, last → order L4 L2 L0 L1 L3 L5
    await call(ctx.emu, 'PATCH', `/lessons/${ids[5]}`, { position: 1 });
    await call(ctx.emu, 'PATCH', `/lessons/${ids[4]}`, { position: 0 });
    const order = await sectionOrder(ctx.emu, 'sec_start');
    expect(order.map(([id]) => ids.indexOf(id))).toEqual([5, 2, 0, 1, 3, 4]);
    expect(order.map(([, p]) => p)).toEqual([1, 3, 4, 5, 6, 7]);
  });
});
