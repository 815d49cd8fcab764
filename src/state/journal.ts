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
 * top-level fields, and per keyed record the changed entries (null = deleted). A last record that
 * is incomplete or fails its checksum is the tail of a write a kill interrupted: it was never
 * acknowledged, so it is ignored. A bad record before the last one is corruption and is refused.
 */
import { createHash } from 'node:crypto';
import { failure } from '../diagnostics/error-codes/index.js';
import { StateSchema, stateFolderOf, type StateData } from './schema.js';
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
  /** Whether a torn last record was ignored. */
  torn: boolean;
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

/**
 * Parse a journal's text. Null when it holds no intact header (a kill while creating it: it
 * held nothing acknowledged).
 * @throws CoursesyncError `state/journal-corrupt` naming the file and the record
 */
export function parseJournal(text: string, file: string): ParsedJournal | null {
  const lines = text.split('\n');
  // Text after the last newline is a write that never finished.
  let torn = lines.pop() !== '';
  const values: unknown[] = [];
  for (const [i, line] of lines.entries()) {
    const value = decodeLine(line);
    if (value === undefined) {
      if (i === lines.length - 1) {
        torn = true;
        break;
      }
      throw failure('state/journal-corrupt', { file, record: i + 1, problem: 'its length or checksum does not match its content' });
    }
    values.push(value);
  }
  const [head, ...rest] = values;
  if (head === undefined) return null;
  const header = head as Partial<JournalHeader>;
  if (header.journal !== 1 || typeof header.lineage !== 'string' || typeof header.base !== 'number') {
    throw failure('state/journal-corrupt', { file, record: 1, problem: 'it is not a coursesync journal header (format 1)' });
  }
  let serial = header.base;
  const records = rest as JournalRecord[];
  for (const [i, r] of records.entries()) {
    if (typeof r?.serial !== 'number' || r.serial !== serial + 1) {
      throw failure('state/journal-corrupt', { file, record: i + 2, problem: `its serial is ${String(r?.serial)}, expected ${serial + 1}` });
    }
    serial = r.serial;
  }
  return { header: header as JournalHeader, records, torn };
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
  for (const r of journal.records) {
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
  const parsed = StateSchema.safeParse(state);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw failure('state/journal-corrupt', { file, record: 0, problem: `replayed, it gives an invalid state: at ${first?.path.join('.') ?? '(top level)'}: ${first?.message ?? 'invalid'}` });
  }
  return parsed.data;
}
