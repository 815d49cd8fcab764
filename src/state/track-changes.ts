/**
 * What changed in a state between two writes, found in O(changed): `draft` is the state seen
 * through proxies that mark every key of `lessons`, `sections` and `pending` read or written
 * through them, and every top-level field set. A key merely read is marked too: an entry taken
 * from the draft may be edited in place (`entry.position = 3`), and the proxy cannot see that
 * edit, only the read before it. `take()` turns the marks into a journal record and clears them.
 */
import { KEYED, TOP, type JournalRecord, type KeyedField, type TopField } from './journal.js';
import type { StateData } from './schema.js';

export class ChangeTracker {
  readonly draft: StateData;
  private readonly keys = new Map<KeyedField, Set<string>>(KEYED.map((f) => [f, new Set<string>()]));
  private readonly top = new Set<TopField>();

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
  }

  private recordProxy(field: KeyedField): object {
    const marked = this.keys.get(field)!;
    const mark = (p: string | symbol) => {
      if (typeof p === 'string') marked.add(p);
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
