/**
 * The state journal `.coursesync/state.journal` (docs/architecture.md#state): a write-ahead log
 * of the changes made to `state.json` since it was last written whole. Apply appends one record
 * per group commit holding only the entries that changed, so a state write costs O(change), not
 * O(state); the journal is folded into `state.json` (compaction) when the store closes and, after
 * a kill, when the next process takes the lock. Readers without the lock replay it read-only.
 *
 * Format: one line per record, `<bytes> <checksum> <json>\n`, where `bytes` is the UTF-8 length
 * of `<json>` and `checksum` the first 16 hex digits of its SHA-256. The first record is the
 * header `{journal: 1, lineage, base}`: the state it applies to (its lineage and serial). Each
 * later record is `{serial, top?, lessons?, sections?, pending?}`: the new serial, changed
 * top-level fields, and per keyed record the changed entries (null = deleted). Text after the
 * last newline is the tail of an append a kill interrupted (a record is one write ending in its
 * newline, and update() resolves only once the whole write is done): it was never acknowledged,
 * so it is dropped, and the loader reports it. A line that ends in a newline and fails its
 * checksum was written whole and damaged since: that is corruption, refused wherever it is
 * (the last record too: it may hold a create that was fsynced before its request left).
 * `state compact --salvage` (salvageJournal) keeps the intact records of a damaged journal.
 */
import { createHash } from 'node:crypto';
import { failure } from '../diagnostics/error-codes/index.js';
import { parseState } from '../model/state/parse-state.js';
import { type StateData, stateFolderOf } from '../model/state/schema.js';
import { join } from 'node:path';

export const JOURNAL_FILE = 'state.journal';

export function journalPath(dir: string, environment?: string): string {
  return join(dir, stateFolderOf(environment), JOURNAL_FILE);
}

/** The keyed records of the state a journal record can change. */
export const KEYED = ['lessons', 'sections', 'pending'] as const;
export type KeyedField = (typeof KEYED)[number];
/** The top-level fields, each replaced whole (serial is carried by every record); the last three: environments (docs/environments.md#state). */
export const TOP = ['version', 'lineage', 'base_url', 'environment', 'program_ids', 'content'] as const;
export type TopField = (typeof TOP)[number];

export interface JournalHeader {
  journal: 1;
  lineage: string;
  /** The serial of state.json this journal applies to. */
  base: number;
}

export interface JournalRecord {
  serial: number;
  top?: Partial<Pick<StateData, TopField>>;
  lessons?: Record<string, unknown>;
  sections?: Record<string, unknown>;
  pending?: Record<string, unknown>;
}

const checksum = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 16);

/** One record as a journal line. */
export function encodeRecord(record: JournalHeader | JournalRecord): string {
  const json = JSON.stringify(record);
  return `${Buffer.byteLength(json)} ${checksum(json)} ${json}\n`;
}

export interface ParsedJournal {
  header: JournalHeader;
  records: JournalRecord[];
  /** Whether a torn tail (text after the last newline) was dropped. */
  torn: boolean;
  /** Its length in bytes (0 when none). */
  tornBytes: number;
}

/** Check one line; undefined when it is not an intact record. */
function decodeLine(line: string): unknown {
  const m = /^(\d+) ([0-9a-f]{16}) /.exec(line);
  if (!m) return undefined;
  const json = line.slice(m[0].length);
  if (Buffer.byteLength(json) !== Number(m[1]) || checksum(json) !== m[2]) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** The whole lines (each ended by a newline) and the torn tail after the last one. */
function splitLines(text: string): { lines: string[]; tail: string } {
  const lines = text.split('\n');
  return { lines, tail: lines.pop() ?? '' };
}

const DAMAGED = 'it ends in a newline, so it was written whole, but its length or checksum does not match its content (damaged since it was written)';

/** A header, or the reason it is not one. */
function headerProblem(head: unknown): string | undefined {
  const header = head as Partial<JournalHeader> | undefined;
  return header?.journal === 1 && typeof header.lineage === 'string' && typeof header.base === 'number' ? undefined : 'it is not a coursesync journal header (format 1)';
}

/**
 * Where a record holds a `__proto__` entry (`lessons.__proto__`, `top.__proto__`): coursesync
 * never writes one, replaying it would set a prototype or be dropped by the schema, so it is
 * refused, never dropped silently.
 */
function protoEntryIn(record: JournalRecord): string | undefined {
  for (const field of ['top', ...KEYED] as const) {
    const value = record[field];
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) return `${field}.__proto__`;
  }
  return undefined;
}

/**
 * Parse a journal's text. Null when it holds no intact header (a kill while creating it: it
 * held nothing acknowledged).
 * @throws CoursesyncError `state/journal-corrupt` naming the file and the record
 */
export function parseJournal(text: string, file: string): ParsedJournal | null {
  const { lines, tail } = splitLines(text);
  const values = lines.map((line, i) => {
    const value = decodeLine(line);
    if (value === undefined) throw failure('state/journal-corrupt', { file, record: i + 1, problem: DAMAGED });
    return value;
  });
  const [head, ...rest] = values;
  if (head === undefined) return null;
  const notHeader = headerProblem(head);
  if (notHeader) throw failure('state/journal-corrupt', { file, record: 1, problem: notHeader });
  const header = head as JournalHeader;
  let serial = header.base;
  const records = rest as JournalRecord[];
  for (const [i, r] of records.entries()) {
    if (typeof r?.serial !== 'number' || r.serial !== serial + 1) {
      throw failure('state/journal-corrupt', { file, record: i + 2, problem: `its serial is ${String(r?.serial)}, expected ${serial + 1}` });
    }
    const proto = protoEntryIn(r);
    if (proto) throw failure('state/journal-corrupt', { file, record: i + 2, problem: `it holds a "${proto}" entry, which coursesync never writes (the record was edited by hand)` });
    serial = r.serial;
  }
  return { header, records, torn: tail !== '', tornBytes: Buffer.byteLength(tail) };
}

/** A damaged journal read for salvage: what could be kept, and what could not. */
export interface SalvagedJournal {
  /** null when the header itself is damaged. */
  header: JournalHeader | null;
  /** The intact records, in order (serials may skip the damaged ones). */
  records: JournalRecord[];
  /** Line numbers of the records that could not be kept, each with why. */
  damaged: Array<{ record: number; problem: string }>;
  /** The highest serial any line may have held (a damaged record's included). */
  lastSerial: number;
  /**
   * Pending records found in damaged lines whose JSON still parses (a flipped byte in a value):
   * untrusted, but a create among them may have reached the school, so salvage records it as
   * uncertain rather than forget it.
   */
  damagedPending: Array<{ key: string; action: string; started_at?: string; name?: string; section_id?: string }>;
  tornBytes: number;
}

/**
 * Read what can be kept of a journal: every intact record whose serial follows the one before
 * it; a damaged line, a record with a `__proto__` entry or an out-of-order serial is left out
 * and listed.
 */
export function salvageJournal(text: string): SalvagedJournal {
  const { lines, tail } = splitLines(text);
  const damaged: SalvagedJournal['damaged'] = [];
  const head = lines.length > 0 ? decodeLine(lines[0]!) : undefined;
  const header = head !== undefined && headerProblem(head) === undefined ? (head as JournalHeader) : null;
  if (lines.length > 0 && header === null) damaged.push({ record: 1, problem: head === undefined ? DAMAGED : headerProblem(head)! });
  const records: JournalRecord[] = [];
  const damagedPending: SalvagedJournal['damagedPending'] = [];
  let serial = header?.base ?? -1;
  for (const [i, line] of lines.entries()) {
    if (i === 0) continue;
    const r = decodeLine(line) as JournalRecord | undefined;
    const proto = r ? protoEntryIn(r) : undefined;
    const problem = r === undefined ? DAMAGED : typeof r.serial !== 'number' || r.serial <= serial ? `its serial is ${String(r.serial)}, after ${serial}` : proto ? `it holds a "${proto}" entry` : undefined;
    if (problem) {
      damaged.push({ record: i + 1, problem });
      damagedPending.push(...pendingIn(r ?? parseLoosely(line)));
      continue;
    }
    records.push(r!);
    serial = r!.serial;
  }
  // A damaged record took a serial too: the state written from a salvage goes past every one.
  const lastSerial = Math.max(serial, (header?.base ?? serial) + lines.length - 1);
  return { header, records, damaged, lastSerial, tornBytes: Buffer.byteLength(tail), damagedPending };
}

/** The JSON of a line that failed its checksum, if it still parses. */
function parseLoosely(line: string): unknown {
  try {
    return JSON.parse(line.slice(line.indexOf('{')));
  } catch {
    return undefined;
  }
}

/** The pending records a (damaged) record names, those with a key and an action. */
function pendingIn(record: unknown): SalvagedJournal['damagedPending'] {
  const pending = (record as { pending?: unknown } | undefined)?.pending;
  if (typeof pending !== 'object' || pending === null) return [];
  return Object.values(pending).filter((p): p is SalvagedJournal['damagedPending'][number] => typeof p === 'object' && p !== null && typeof p.key === 'string' && typeof p.action === 'string');
}

/** The serial the state has once every record of `journal` is applied. */
export const lastSerial = (journal: ParsedJournal) => journal.records.at(-1)?.serial ?? journal.header.base;

/**
 * What to do with a journal found next to `state`: replay it (it starts at the state's serial),
 * skip it (state.json already holds it: a kill between compaction's rename and the journal's
 * removal, or, for a reader without the lock, a compaction that ran between its two reads).
 * @throws CoursesyncError `state/journal-mismatch` when it belongs to another state
 */
export function journalFits(state: StateData, journal: ParsedJournal, file: string, stateFile: string, locked: boolean): 'replay' | 'skip' {
  const { lineage, base } = journal.header;
  const last = lastSerial(journal);
  if (lineage !== state.lineage) {
    throw failure('state/journal-mismatch', { file, stateFile, why: `it belongs to the state of lineage ${lineage}, and ${stateFile} has lineage ${state.lineage}` });
  }
  if (state.serial === base) return 'replay';
  if (state.serial === last || (!locked && state.serial > last)) return 'skip';
  throw failure('state/journal-mismatch', { file, stateFile, why: `it continues serial ${base} (up to ${last}), and ${stateFile} has serial ${state.serial}` });
}

/**
 * Apply the records to `state` in place, then check the result has the state's shape (a journal
 * with a checksum can still have been written by a broken or newer tool).
 */
export function replayJournal(state: StateData, journal: ParsedJournal, file: string): StateData {
  for (const r of journal.records) applyRecord(state, r);
  return checkReplayed(state, file);
}

/** Apply one record to `state` in place (a record parsed by this file: no `__proto__` entry). */
export function applyRecord(state: StateData, r: JournalRecord): void {
  state.serial = r.serial;
  if (r.top) Object.assign(state, r.top);
  for (const field of KEYED) {
    const changes = r[field];
    if (!changes) continue;
    const target = state[field] as Record<string, unknown>;
    for (const key of Object.keys(changes)) {
      const value = changes[key];
      if (value === null) delete target[key];
      else target[key] = value;
    }
  }
}

/** The replayed state, checked against the state's shape. */
export function checkReplayed(state: StateData, file: string): StateData {
  const parsed = parseState(state);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw failure('state/journal-corrupt', { file, record: 0, problem: `replayed, it gives an invalid state: at ${first?.path.join('.') ?? '(top level)'}: ${first?.message ?? 'invalid'}` });
  }
  return parsed.data;
}
