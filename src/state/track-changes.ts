/**
 * What changed in a state between two writes, found in O(changed): `draft` is the state seen
 * through proxies that mark every key of `lessons`, `sections` and `pending` read or written
 * through them, and every top-level field set. A key merely read is marked too: an entry taken
 * from the draft may be edited in place (`entry.position = 3`), and the proxy cannot see that
 * edit, only the read before it. `take()` turns the marks into a journal record and clears them.
 */
import { KEYED, TOP, type JournalRecord, type KeyedField, type TopField } from './journal.js';
import type { LessonState, StateData } from '../model/state/schema.js';

/** The tracker behind a draft or a store's state, so readers given either can use its index. */
const trackers = new WeakMap<object, ChangeTracker>();

/**
 * The tracked lessons (with an id) of one section, by key, read without marking them. On a
 * store's draft or state this is O(section) through the tracker's index; on any other state
 * object, a scan.
 */
export function lessonsInSection(state: Readonly<StateData>, sectionId: string): Array<[string, LessonState]> {
  const tracker = trackers.get(state);
  if (tracker) return tracker.lessonsIn(sectionId);
  return Object.entries(state.lessons).filter(([, l]) => l.id !== null && l.section_id === sectionId);
}

export class ChangeTracker {
  readonly draft: StateData;
  private readonly keys = new Map<KeyedField, Set<string>>(KEYED.map((f) => [f, new Set<string>()]));
  private readonly top = new Set<TopField>();
  /**
   * Keys of tracked lessons by section (built on first use), and the lesson keys marked since
   * the last `settle()`: their entries may have moved, so every query re-files them first.
   */
  private bySection: Map<string, Set<string>> | undefined;
  private readonly sectionOf = new Map<string, string>();
  private readonly moved = new Set<string>();

  constructor(private readonly state: StateData) {
    const records = new Map<string | symbol, object>(KEYED.map((f) => [f, this.recordProxy(f)]));
    this.draft = new Proxy(state, {
      get: (target, p) => records.get(p) ?? Reflect.get(target, p),
      set: (target, p, value) => {
        if (!(TOP as readonly (string | symbol)[]).includes(p)) {
          throw new Error(`state.${String(p)} cannot be replaced through update(): ${KEYED.includes(p as KeyedField) ? 'set or delete its entries' : 'the store keeps it'}`);
        }
        this.top.add(p as TopField);
        return Reflect.set(target, p, value);
      },
      deleteProperty: (_target, p) => {
        throw new Error(`state.${String(p)} cannot be deleted`);
      },
    });
    trackers.set(this.draft, this);
    trackers.set(state, this);
  }

  /** See lessonsInSection. */
  lessonsIn(sectionId: string): Array<[string, LessonState]> {
    this.refile();
    const out: Array<[string, LessonState]> = [];
    for (const key of this.bySection!.get(sectionId) ?? []) out.push([key, this.state.lessons[key]!]);
    return out;
  }

  /** Call after each update: entries marked so far are re-filed, and no longer re-checked. */
  settle(): void {
    if (this.bySection === undefined) {
      this.moved.clear();
      return;
    }
    this.refile();
    this.moved.clear();
  }

  private refile(): void {
    if (this.bySection === undefined) {
      this.bySection = new Map();
      for (const key of Object.keys(this.state.lessons)) this.file(key);
      return;
    }
    for (const key of this.moved) this.file(key);
  }

  private file(key: string): void {
    const was = this.sectionOf.get(key);
    const entry = this.state.lessons[key];
    const now = entry !== undefined && entry.id !== null ? entry.section_id : undefined;
    if (was === now) return;
    if (was !== undefined) {
      this.bySection!.get(was)!.delete(key);
      this.sectionOf.delete(key);
    }
    if (now !== undefined) {
      let keys = this.bySection!.get(now);
      if (!keys) this.bySection!.set(now, (keys = new Set()));
      keys.add(key);
      this.sectionOf.set(key, now);
    }
  }

  private recordProxy(field: KeyedField): object {
    const marked = this.keys.get(field)!;
    const moved = field === 'lessons' ? this.moved : undefined;
    const mark = (p: string | symbol) => {
      if (typeof p !== 'string') return;
      marked.add(p);
      moved?.add(p);
    };
    return new Proxy(this.state[field], {
      get: (target, p) => {
        mark(p);
        return Reflect.get(target, p);
      },
      set: (target, p, value) => {
        mark(p);
        return Reflect.set(target, p, value);
      },
      defineProperty: (target, p, descriptor) => {
        mark(p);
        return Reflect.defineProperty(target, p, descriptor);
      },
      deleteProperty: (target, p) => {
        mark(p);
        return Reflect.deleteProperty(target, p);
      },
    });
  }

  /**
   * The record of everything marked since the last take, at `serial`; clears the marks. A
   * lesson's nested objects are frozen once recorded, so editing one in place throws instead
   * of changing memory without a record.
   */
  take(serial: number): JournalRecord {
    const record: JournalRecord = { serial };
    if (this.top.size > 0) {
      record.top = Object.fromEntries([...this.top].map((f) => [f, this.state[f]]));
      this.top.clear();
    }
    for (const field of KEYED) {
      const marked = this.keys.get(field)!;
      if (marked.size === 0) continue;
      const source = this.state[field] as Record<string, unknown>;
      const changes = Object.create(null) as Record<string, unknown>;
      for (const key of marked) {
        const value = source[key];
        if (field === 'lessons' && value !== undefined) freezeNested(value as Record<string, unknown>);
        changes[key] = value === undefined ? null : value;
      }
      record[field] = changes;
      marked.clear();
    }
    return record;
  }
}

function freezeNested(entry: Record<string, unknown>): void {
  for (const nested of ['applied', 'response', 'uncertain']) {
    const v = entry[nested];
    if (v !== null && typeof v === 'object') Object.freeze(v);
  }
}
