/**
 * The shared position model (src/school-api/positions.ts) against the independent oracle, on random
 * sequences of creates and updates over three sections: every returned position and every
 * lesson's seat must agree after every request.
 */
import { describe, expect, it } from 'vitest';
import { place, placementOf, removeFromSection, type SectionSlots } from '../../src/school-api/positions.js';
import { seededRandom } from '../plan/build-course.js';
import { PositionOracle } from './position-oracle.js';

const SECTIONS = ['s1', 's2', 's3'];

/** The shared model driven like the emulator drives it. */
class Shared {
  readonly sections = new Map<string, SectionSlots>(SECTIONS.map((s) => [s, new Map()]));
  private readonly sectionOf = new Map<string, string>();

  create(id: string, r: { section_id: string; position?: number | null }): number {
    this.sectionOf.set(id, r.section_id);
    return place(this.sections.get(r.section_id)!, id, placementOf({ kind: 'create', position: r.position }));
  }

  update(id: string, r: { section_id?: string; position?: number }): number {
    const from = this.sectionOf.get(id)!;
    const to = r.section_id ?? from;
    if (to !== from) removeFromSection(this.sections.get(from)!, id);
    this.sectionOf.set(id, to);
    return place(this.sections.get(to)!, id, placementOf({ kind: 'update', position: r.position, sectionChanged: to !== from }));
  }

  where(): Map<string, { section: string; position: number }> {
    const out = new Map<string, { section: string; position: number }>();
    for (const [section, slots] of this.sections) for (const [id, position] of slots) out.set(id, { section, position });
    return out;
  }
}

describe('src/school-api/positions.ts agrees with the independent oracle', () => {
  it('on 200 random sequences of 40 requests', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rnd = seededRandom(seed);
      const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
      const oracle = new PositionOracle();
      const shared = new Shared();
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const position = rnd() < 0.3 ? undefined : rnd() < 0.15 ? 0 : 1 + Math.floor(rnd() * (ids.length + 3));
        let step: string;
        let got: [number, number];
        if (ids.length === 0 || rnd() < 0.35) {
          const id = `l${i}`;
          ids.push(id);
          const r = { section_id: pick(SECTIONS), ...(position === undefined ? {} : { position: rnd() < 0.2 ? null : position }) };
          step = `create ${id} ${JSON.stringify(r)}`;
          got = [shared.create(id, r), oracle.create(id, r)];
        } else {
          const id = pick(ids);
          const r = { ...(rnd() < 0.4 ? { section_id: pick(SECTIONS) } : {}), ...(position === undefined ? {} : { position }) };
          step = `update ${id} ${JSON.stringify(r)}`;
          got = [shared.update(id, r), oracle.update(id, r)];
        }
        const context = `seed ${seed}, request ${i}: ${step}`;
        expect(got[0], context).toBe(got[1]);
        expect(shared.where(), context).toEqual(oracle.where());
      }
    }
  });
});
