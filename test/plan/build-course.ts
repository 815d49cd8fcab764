/** Test helpers: build DesiredState and StateData by hand, so planner tests need no files. */
import { appliedOf } from '../../src/model/state/fingerprint.js';
import { DEFAULT_CONFIG, type CourseConfig } from '../../src/model/config.js';
import { DEFAULT_LESSON_FIELDS, type DesiredLesson, type DesiredState, type LessonFields } from '../../src/model/desired.js';
import type { LessonState, StateData } from '../../src/model/state/schema.js';

export const LINEAGE = '00000000-0000-4000-8000-000000000000';

/** Default fields for a lesson named after its key. */
export function fieldsOf(key: string, over: Partial<LessonFields> = {}): LessonFields {
  return { ...DEFAULT_LESSON_FIELDS, name: `Lesson ${key}`, lesson_type: 'text', body: `<p>Body of ${key}</p>`, ...over };
}

export interface LessonSpec {
  key: string;
  aliases?: string[];
  fields?: Partial<LessonFields>;
}
type Spec = string | LessonSpec;
const spec = (s: Spec): LessonSpec => (typeof s === 'string' ? { key: s } : s);

/** `{ prog_a: { sec_1: ['a', 'b'] } }` → DesiredState (section folders named after the ids). */
export function desiredOf(programs: Record<string, Record<string, Spec[]>>, config: Partial<CourseConfig> = {}): DesiredState {
  return {
    config: { ...DEFAULT_CONFIG, ...config },
    digest: 'd'.repeat(64),
    programs: Object.entries(programs).map(([pid, sections]) => ({
      path: pid,
      id: pid,
      sections: Object.entries(sections).map(([sid, lessons]) => ({
        path: `${pid}/${sid}`,
        ref: { id: sid },
        lessons: lessons.map(spec).map(
          (l): DesiredLesson => ({
            key: l.key,
            aliases: l.aliases ?? [],
            path: `${pid}/${sid}/${l.key}.md`,
            fields: fieldsOf(l.key, l.fields),
            digest: 'x',
          }),
        ),
      })),
    })),
  };
}

/**
 * `{ prog_a: { sec_1: ['a', 'b'] } }` → state with those lessons applied at positions 1..n
 * (or explicit positions with `{ sec_1: { a: 1, b: 5 } }`), ids `id_<key>`.
 */
export function stateOf(
  programs: Record<string, Record<string, Spec[] | Record<string, number>>>,
  over: Partial<Record<string, Partial<LessonState>>> = {},
): StateData {
  const lessons: Record<string, LessonState> = {};
  for (const [pid, sections] of Object.entries(programs)) {
    for (const [sid, list] of Object.entries(sections)) {
      const entries: Array<[LessonSpec, number]> = Array.isArray(list)
        ? list.map((s, i) => [spec(s), i + 1])
        : Object.entries(list).map(([k, p]) => [{ key: k }, p]);
      for (const [l, position] of entries) {
        lessons[l.key] = {
          id: `id_${l.key}`,
          program_id: pid,
          section_id: sid,
          position,
          path: `${pid}/${sid}/${l.key}.md`,
          applied: appliedOf(fieldsOf(l.key, l.fields)),
          response: '',
          ...over[l.key],
        };
      }
    }
  }
  return { version: 2, lineage: LINEAGE, serial: 3, base_url: 'http://127.0.0.1:4010/api/v1', lessons, sections: {}, pending: {} };
}

/** Section folder → id map for desiredOf() repos (ids are the folder names). */
export function sectionIdsOf(desired: DesiredState): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of desired.programs) for (const s of p.sections) if ('id' in s.ref) m.set(s.path, s.ref.id);
  return m;
}

/** A seeded RNG (mulberry32) for reproducible shuffles. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(list: readonly T[], rnd: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Length of the longest increasing subsequence (plain, for expected call counts). */
export function lisLength(seq: readonly number[]): number {
  const tails: number[] = [];
  for (const x of seq) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}
