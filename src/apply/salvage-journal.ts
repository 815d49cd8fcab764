/**
 * `coursesync state compact --salvage`: the way out of a damaged state journal that loses no
 * lesson. Under the state lock it folds every intact record of the journal into state.json (in
 * order; a damaged one is left out and listed), turns the creates the journal left pending into
 * uncertain entries (the lesson may exist: never created again blindly, as at an apply's start)
 * and keeps the damaged journal next to the state as `state.journal.damaged-<serial>`, never
 * deleting it. A journal that belongs to another state (another lineage, or a state.json older
 * than the journal's start) is refused: folding it would forget what came between.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { failure } from '../diagnostics/error-codes/index.js';
import { LESSON_KEY_PATTERN } from '../model/lesson.js';
import { uncertainCreateEntry } from '../plan/uncertain-create.js';
import { applyRecord, checkReplayed, journalPath, parseJournal, salvageJournal, type SalvagedJournal } from '../state/journal.js';
import { checkStateEnvironment } from '../state/check-environment.js';
import { acquireStateLock, type AcquireLockOptions } from '../state/lock-state.js';
import { NotRegularFileError, readRegularFile } from '../state/read-regular-file.js';
import { stateFolderOf, type StateData } from '../model/state/schema.js';
import { parseStateText, removeStaleTempFiles, statePath, syncFolder, writeStateFile } from '../state/state-file.js';

export interface SalvageResult {
  /** False when the journal was intact (or absent): folded as `state compact` does, nothing to salvage. */
  salvaged: boolean;
  /** Intact records folded in, and the records left out with why. */
  kept: number;
  damaged: SalvagedJournal['damaged'];
  /** Keys of pending creates recorded as uncertain. */
  uncertain: string[];
  /** Where the damaged journal is kept. */
  keptAs: string | null;
  serial: number;
}

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readRegularFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (e instanceof NotRegularFileError) throw failure('state/not-a-file', { file, kind: e.kind });
    throw failure('state/unreadable', { file, reason: (e as Error).message }, { cause: e });
  }
}

/** Fold what can be kept of the journal into `state` (see the file header); returns the uncertain keys. */
function foldSalvaged(state: StateData, journal: SalvagedJournal, file: string, stateFile: string): string[] {
  if (journal.header && journal.header.lineage !== state.lineage) {
    throw failure('state/journal-mismatch', { file, stateFile, why: `it belongs to the state of lineage ${journal.header.lineage}, and ${stateFile} has lineage ${state.lineage}` });
  }
  if (journal.header && state.serial < journal.header.base) {
    throw failure('state/journal-mismatch', { file, stateFile, why: `it continues serial ${journal.header.base}, and ${stateFile} has the older serial ${state.serial}` });
  }
  // Records state.json already holds (a kill between compaction's rename and the journal's removal) are skipped.
  for (const r of journal.records) if (r.serial > state.serial) applyRecord(state, r);
  state.serial = Math.max(state.serial, journal.lastSerial);
  const uncertain: string[] = [];
  const creates = [
    ...Object.entries(state.pending).filter(([, p]) => p.action === 'create').map(([id, p]) => ({ id, ...p })),
    // A create read from a damaged record (its values untrusted): uncertain too, unless its key already has a lesson.
    ...journal.damagedPending.filter((p) => p.action === 'create' && LESSON_KEY_PATTERN.test(p.key)).map((p) => ({ id: undefined, ...p, name: typeof p.name === 'string' ? p.name : undefined, section_id: typeof p.section_id === 'string' ? p.section_id : undefined })),
  ];
  for (const p of creates) {
    if (p.id !== undefined) delete state.pending[p.id];
    if (state.lessons[p.key]?.id || uncertain.includes(p.key)) continue;
    state.lessons[p.key] = uncertainCreateEntry({ key: p.key, name: p.name, section_id: p.section_id, since: typeof p.started_at === 'string' ? p.started_at : new Date().toISOString() }, undefined);
    uncertain.push(p.key);
  }
  return uncertain.sort();
}

/** Salvage the journal of the repo at `dir`, of `options.environment`'s state in a repo with environments (see the file header). */
export async function salvageStateJournal(dir: string, options: AcquireLockOptions = {}): Promise<SalvageResult> {
  const lock = await acquireStateLock(dir, options);
  try {
    const environment = options.environment;
    await removeStaleTempFiles(dir, environment);
    const file = journalPath(dir, environment);
    const stateFile = statePath(dir, environment);
    const text = await readOptional(file);
    const stateText = await readOptional(stateFile);
    if (stateText === null) throw failure('state/none', {});
    const state = parseStateText(stateText, stateFile);
    // A state another environment wrote is refused before anything is folded into it.
    checkStateEnvironment(state, stateFile, environment);
    const intact = text === null ? 'absent' : (() => {
      try {
        parseJournal(text, file);
        return 'intact';
      } catch {
        return 'damaged';
      }
    })();
    if (text === null || intact === 'intact') return { salvaged: false, kept: 0, damaged: [], uncertain: [], keptAs: null, serial: state.serial };
    const journal = salvageJournal(text);
    const uncertain = foldSalvaged(state, journal, file, stateFile);
    const folded = checkReplayed(state, file);
    await writeStateFile(dir, folded, environment);
    const keptAs = `${file}.damaged-${folded.serial}`;
    await rename(file, keptAs);
    await syncFolder(join(dir, stateFolderOf(environment)));
    return { salvaged: true, kept: journal.records.length, damaged: journal.damaged, uncertain, keptAs, serial: folded.serial };
  } finally {
    await lock.release();
  }
}
