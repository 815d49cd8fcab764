/**
 * parseState (the fast read of a state's data) gives StateSchema's answer: for valid and
 * mutated lesson entries and states, seeded, the same success, the same data (key order and
 * null-prototype records included) and the same issues; and it never changes its input.
 */
import { describe, expect, it } from 'vitest';
import { LESSON_ENTRY_FIELDS, parseState, readLessonEntry } from '../../src/model/state/parse-state.js';
import { appliedOf } from '../../src/model/state/fingerprint.js';
import { appliedFromDisk, LessonOnDiskSchema, StateSchema } from '../../src/model/state/schema.js';
import { fingerprintFromDisk } from '../../src/model/state/state-layout.js';
import { DEFAULT_LESSON_FIELDS, LESSON_FIELDS, LESSON_TYPES, type LessonField, type LessonFields } from '../../src/school-api/school-rules.js';
import { createRng, type Rng } from '../reliability/random.js';

const LINEAGE = '11111111-1111-4111-8111-111111111111';
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rng.int(0, 15)]).join('');
const maybe = (rng: Rng, p = 0.5) => rng.next() < p;

/** `applied` as coursesync writes it (format 3) or keeps it in memory (whole, prefixed fingerprints). */
function validApplied(rng: Rng): Record<string, unknown> {
  const whole = maybe(rng, 0.2);
  const fp = () => pickOf(rng, ['', hex(rng, 24), `sha256:${hex(rng, 24)}`, `sha256:${hex(rng, 32)}`]);
  const all: Record<LessonField, unknown> = {
    name: pickOf(rng, ['Intro', '', 'ünïcödé 🎉', 'a "quoted" name']),
    lesson_type: rng.pick(LESSON_TYPES),
    drip_delay: pickOf(rng, [0, 7, 32767, -3]),
    is_published: maybe(rng),
    is_progression_locked: maybe(rng),
    description: fp(),
    body: fp(),
    settings_embed_host_a: pickOf(rng, [null, 'https://youtu.be/x']),
    settings_embed_host_b: pickOf(rng, [null, 'https://vimeo.com/1']),
    settings_embed_host_c: pickOf(rng, [null, '']),
    settings_embed_host_d: null,
    settings_embed_code: pickOf(rng, [null, '<iframe></iframe>']),
    embed_code: pickOf(rng, [null, '<div></div>']),
  };
  return whole ? all : Object.fromEntries(Object.entries(all).filter(() => maybe(rng, 0.4)));
}

function pickOf<T>(rng: Rng, list: readonly T[]): T {
  return rng.pick(list);
}

/** A lesson entry as coursesync writes it, in a random key order. */
function validEntry(rng: Rng): Record<string, unknown> {
  const e: Record<string, unknown> = {
    id: maybe(rng, 0.9) ? `les_${rng.int(1, 99999)}` : null,
    section_id: `sec_${rng.int(1, 9)}`,
    position: maybe(rng, 0.9) ? rng.int(1, 500) : null,
    path: pickOf(rng, ['1-intro.md', '/01-p/02-s/3-x.md', 'a b/ü.md']),
    applied: validApplied(rng),
  };
  if (maybe(rng)) e.program_id = `prog_${rng.int(1, 3)}`;
  if (maybe(rng, 0.3)) e.response = pickOf(rng, ['', `name=${hex(rng, 6)}`, `body=${hex(rng, 6)} name=${hex(rng, 6)}`]);
  if (maybe(rng)) e.blob = hex(rng, 40);
  if (maybe(rng)) e.digest = hex(rng, 32);
  if (maybe(rng, 0.3)) e.compiler = hex(rng, rng.int(12, 16));
  if (maybe(rng, 0.3)) e.deps = ['img/a.png@1a2b', '../02-s/x.md@ffff'].slice(0, rng.int(1, 2));
  if (maybe(rng, 0.2)) e.inputs = [`include:snippets/a.md@${hex(rng, 8)}`, `var:course@${hex(rng, 8)}`].slice(0, rng.int(1, 2));
  if (maybe(rng, 0.2)) e.aliases = ['old-key', 'older.key_2'].slice(0, rng.int(1, 2));
  if (maybe(rng, 0.2)) e.acknowledge = ['position'];
  if (maybe(rng, 0.2)) e.warnings = validWarnings(rng);
  if (maybe(rng, 0.1)) e.uncertain = { name: 'Intro', section_id: 'sec_1', since: '2026-01-01T00:00:00Z' };
  // Key order as it comes (serialize-state.ts sorts; a hand edit may not).
  return Object.fromEntries(Object.entries(e).sort(() => rng.next() - 0.5));
}

/** `warnings` as compile records them: one or more, each with or without its place, hint and excerpt, keys in any order. */
function validWarnings(rng: Rng): Array<Record<string, unknown>> {
  return Array.from({ length: rng.int(1, 3) }, () => {
    const w: Record<string, unknown> = { code: rng.pick(['lesson/unknown-element', 'lesson/event-handler', 'lesson/javascript-url', 'include/unsupported', 'lesson/of-a-later-coursesync']), message: pickOf(rng, ['<Listing> is not an HTML element', '', 'ünïcödé "quoted"']) };
    if (maybe(rng, 0.2)) w.file = '_partials/note.md';
    if (maybe(rng, 0.8)) w.line = rng.int(1, 900);
    if (maybe(rng, 0.8)) w.column = rng.int(1, 80);
    if (maybe(rng, 0.7)) w.hint = 'put it in backticks';
    if (maybe(rng, 0.2)) w.excerpt = '12 | <Listing>';
    return Object.fromEntries(Object.entries(w).sort(() => rng.next() - 0.5));
  });
}

/** One recorded warning broken in one way (or, for some, in a way zod happens to accept: both must agree). */
function oddWarnings(rng: Rng): unknown {
  const [w] = validWarnings(rng) as [Record<string, unknown>];
  const field = rng.pick(['code', 'file', 'line', 'column', 'message', 'hint', 'excerpt', 'extra']);
  if (maybe(rng, 0.2)) delete w[field];
  else w[field] = rng.pick([...ODD_VALUES, 'include/unsupported', 'lesson/link-to-draft', 'Lesson/Upper', 'lesson/', '/x', 0, 1, 2.5, -1]);
  return pickOf(rng, [[w], [...validWarnings(rng), w], w]);
}

/** Values that break a field's rule (or, some of them, that zod happens to accept: both must agree either way). */
const ODD_VALUES: unknown[] = [
  undefined, null, '', 'x', '   ', 0, -0, 1, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], [''], ['x', 1], [null], {}, { a: 1 },
  'ABCDEF0123456789ABCDEF0123456789ABCDEF01', 'sha256:', 'sha256:' + 'a'.repeat(23), 'a'.repeat(24) + ' ', 'include:x@1234567', 'name=12345', 'name=1234567', 'Name=123456',
  '-key', 'video', 'VIDEO', 'include:a@0123abcd', 'var:x@0123abcd', 'sha256:' + 'a'.repeat(24), 'a'.repeat(40), 'a'.repeat(32), 'a'.repeat(12),
  // At the edges of the hex checks done by hand: lengths one off, characters just outside 0-9 and a-f, the prefix's case.
  'a'.repeat(11), 'f'.repeat(16), '0'.repeat(17), 'a'.repeat(23), 'a'.repeat(25), 'a'.repeat(31), 'a'.repeat(33), 'a'.repeat(39), 'a'.repeat(41),
  'a'.repeat(23) + '/', 'a'.repeat(23) + ':', 'a'.repeat(31) + '`', 'a'.repeat(39) + 'g', 'A'.repeat(32), '9'.repeat(15) + 'G',
  'sha256:' + 'a'.repeat(32), 'sha256:' + 'a'.repeat(31), 'sha256:' + 'a'.repeat(25), 'SHA256:' + 'a'.repeat(24), 'sha256:' + 'A'.repeat(24), 'sha256;' + 'a'.repeat(24), 'sha256:' + 'a'.repeat(23) + 'g',
];

/** One mutation of an entry: a field set to an odd value, removed, or an unknown key added; also inside applied and uncertain. */
function mutate(rng: Rng, entry: Record<string, unknown>): { entry: Record<string, unknown>; what: string } {
  const e = structuredClone(entry);
  const roll = rng.int(0, 9);
  if (roll === 0) {
    e[pickOf(rng, ['extra', 'constructor', 'toString', 'Id'])] = 'x';
    return { entry: e, what: 'unknown key' };
  }
  if (roll <= 2) {
    const applied = { ...(e.applied as object) } as Record<string, unknown>;
    const field = rng.pick([...LESSON_FIELDS, 'other']);
    applied[field] = rng.pick(ODD_VALUES);
    e.applied = applied;
    return { entry: e, what: `applied.${field}` };
  }
  if (roll === 3) {
    e.uncertain = maybe(rng) ? { name: 'n', section_id: 's', since: rng.pick(ODD_VALUES) } : rng.pick(ODD_VALUES);
    return { entry: e, what: 'uncertain' };
  }
  if (roll === 4) {
    e.warnings = oddWarnings(rng);
    return { entry: e, what: 'warnings' };
  }
  const field = rng.pick(LESSON_ENTRY_FIELDS);
  if (maybe(rng, 0.2)) delete e[field];
  else e[field] = rng.pick(ODD_VALUES);
  return { entry: e, what: field };
}

/** Both answers for `raw`: each given its own copy, so neither can see what the other did. */
function bothOf(raw: unknown) {
  const before = structuredClone(raw);
  const fast = parseState(raw);
  expect(raw, 'parseState changed its input').toStrictEqual(before);
  return { fast, zod: StateSchema.safeParse(structuredClone(raw)) };
}

/** The same answer: success, data (key order, null prototypes), issues. */
function expectSame({ fast, zod }: ReturnType<typeof bothOf>, what: string): void {
  expect(fast.success, what).toBe(zod.success);
  if (fast.success && zod.success) {
    expect(fast.data, what).toStrictEqual(zod.data);
    expect(JSON.stringify(fast.data), `${what}: key order`).toBe(JSON.stringify(zod.data));
    for (const record of ['lessons', 'sections', 'pending'] as const) expect(Object.getPrototypeOf(fast.data[record]), record).toBe(null);
    for (const [key, l] of Object.entries(zod.data.lessons)) expect(Object.keys(fast.data.lessons[key]!), `${what}: ${key} key order`).toEqual(Object.keys(l));
  } else if (!fast.success && !zod.success) {
    expect(fast.error.issues, what).toEqual(zod.error.issues);
  }
}

function stateOf(lessons: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 3,
    lineage: LINEAGE,
    serial: 4,
    base_url: 'http://127.0.0.1:4010/api/v1',
    folders: { sec_1: { path: '01-p/01-s', program_id: 'prog_1' }, sec_2: { path: '.', program_id: 'prog_2' } },
    compiler: '0123456789ab',
    lessons,
    sections: { '01-p/01-s': { id: 'sec_1', name: 'One', program_id: 'prog_1' } },
    pending: {},
    ...extra,
  };
}

describe('parseState gives StateSchema’s answer', () => {
  it('the fast check knows every field of a lesson entry, in the schema’s order', () => {
    expect([...LESSON_ENTRY_FIELDS]).toEqual(Object.keys(LessonOnDiskSchema.shape));
  });

  it('applied reads back as appliedOf of the fields given over the defaults, fingerprints prefixed and shortened', () => {
    const rng = createRng(5);
    for (let i = 0; i < 2000; i++) {
      const given = validApplied(rng) as Partial<LessonFields>;
      const fields = { ...DEFAULT_LESSON_FIELDS, ...given };
      const expected = appliedOf({ ...fields, body: fingerprintFromDisk(fields.body), description: fingerprintFromDisk(fields.description) });
      expect(appliedFromDisk(given), JSON.stringify(given)).toStrictEqual(expected);
    }
  });

  it('a lesson entry: the fast check accepts exactly what LessonOnDiskSchema accepts, and reads it the same (2,000 valid, 4,000 mutated)', () => {
    const rng = createRng(28);
    const seen = { accepted: new Set<string>(), refused: new Set<string>() };
    // As a state file holds it (JSON: no undefined, no NaN); a value undefined in memory goes to the schema.
    const check = (value: unknown, what: string) => {
      const entry: unknown = JSON.parse(JSON.stringify(value));
      const fast = readLessonEntry(structuredClone(entry));
      const zod = LessonOnDiskSchema.safeParse(structuredClone(entry));
      expect(fast !== undefined, `${what}: ${JSON.stringify(entry)}`).toBe(zod.success);
      if (zod.success) {
        expect(fast, what).toStrictEqual(zod.data);
        expect(JSON.stringify(fast), what).toBe(JSON.stringify(zod.data));
      }
      return zod.success;
    };
    for (let i = 0; i < 2000; i++) {
      const entry = validEntry(rng);
      expect(check(entry, 'valid'), JSON.stringify(entry)).toBe(true);
      for (let m = 0; m < 2; m++) {
        const { entry: bad, what } = mutate(rng, entry);
        seen[check(bad, what) ? 'accepted' : 'refused'].add(what);
      }
    }
    // The mutations reached every field, and both ways (some odd values are valid: null id, -0 drip_delay).
    for (const field of [...LESSON_ENTRY_FIELDS]) expect(seen.refused, field).toContain(field);
    for (const field of LESSON_FIELDS) expect(seen.refused, field).toContain(`applied.${field}`);
    expect(seen.accepted.size).toBeGreaterThan(5);
  });

  it('whole states: valid, with mutated entries, orphans, bad keys and bad top-level fields, format 2 and in memory', () => {
    const rng = createRng(2028);
    const states: Array<[string, unknown]> = [];
    for (let i = 0; i < 200; i++) {
      const lessons: Record<string, unknown> = {};
      for (let k = 0; k < rng.int(0, 12); k++) lessons[`lesson-${k}`] = { ...validEntry(rng), section_id: rng.pick(['sec_1', 'sec_2', 'sec_9']) };
      states.push(['valid', stateOf(lessons)]);
      const content = { digest: hex(rng, 64), commit: pickOf(rng, [null, hex(rng, 40)]), lessons: Object.fromEntries(Object.keys(lessons).map((k) => [k, hex(rng, 16)])) };
      states.push(['an environment’s content', stateOf(lessons, { environment: 'staging', program_ids: ['prog_1'], content })]);
      const oddKey = rng.pick(['lessons', 'digest', 'commit', 'extra']);
      const oddContent = { ...content, [oddKey]: oddKey === 'lessons' ? { ...content.lessons, x: rng.pick(ODD_VALUES) } : rng.pick(ODD_VALUES) };
      states.push([`content with an odd ${oddKey}`, stateOf(lessons, { content: oddContent })]);
      states.push(['format 2 (no folders)', stateOf(lessons, { version: 2, folders: undefined, compiler: undefined })]);
      const keys = Object.keys(lessons);
      if (keys.length > 0) {
        const { entry, what } = mutate(rng, lessons[rng.pick(keys)] as Record<string, unknown>);
        states.push([`mutated ${what}`, stateOf({ ...lessons, [rng.pick(keys)]: entry })]);
      }
      states.push(['bad key', stateOf({ ...lessons, [rng.pick(['-x', '', 'a b', '__proto__'])]: validEntry(rng) })]);
      states.push(['bad top-level field', stateOf(lessons, { [rng.pick(['serial', 'lineage', 'base_url', 'version', 'folders', 'sections', 'pending', 'content', 'extra'])]: rng.pick(ODD_VALUES) })]);
    }
    states.push(['not an object', null], ['an array', []], ['lessons an array', stateOf([] as never)], ['empty', {}]);
    for (const [what, raw] of states) {
      // JSON as written: no undefined fields.
      const json = raw === null || typeof raw !== 'object' ? raw : JSON.parse(JSON.stringify(raw));
      expectSame(bothOf(json), what);
    }
  });

  it('a state already read (the journal replays onto one) reads back the same, null-prototype records and all', () => {
    const rng = createRng(7);
    const lessons: Record<string, unknown> = {};
    for (let k = 0; k < 50; k++) lessons[`l${k}`] = { ...validEntry(rng), section_id: 'sec_1' };
    const read = StateSchema.parse(JSON.parse(JSON.stringify(stateOf(lessons))));
    expect(Object.getPrototypeOf(read.lessons)).toBe(null);
    const again = parseState(read);
    expect(again.success).toBe(true);
    expect(again.data).toStrictEqual(StateSchema.parse(read));
  });

  it('a state with 2,000 lessons, one of them invalid: the error is the schema’s', () => {
    const rng = createRng(1);
    const lessons: Record<string, unknown> = {};
    for (let k = 0; k < 2000; k++) lessons[`lesson-${k}`] = { ...validEntry(rng), section_id: 'sec_1' };
    (lessons['lesson-1999'] as Record<string, unknown>).position = 0;
    const { fast, zod } = bothOf(JSON.parse(JSON.stringify(stateOf(lessons))));
    expect(fast.success).toBe(false);
    expect(fast.error?.issues[0]?.path).toEqual(['lessons', 'lesson-1999', 'position']);
    expect(fast.error?.issues).toEqual(zod.error?.issues);
  });
});
