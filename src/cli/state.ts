/**
 * `coursesync state list|show|rm|compact` (docs/architecture.md#state), Terraform's state commands:
 * see which school lesson each repo key is, and forget one (e.g. after it was deleted in the
 * school). `rm` holds the state lock and writes atomically; the school is never changed.
 */
import type { Command } from 'commander';
import type { LessonState, StateData } from '../model/state/schema.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { processIo, type CommandIo } from './school-command.js';
import { printDocument, printRecord, printTable } from './terminal.js';
import { access } from 'node:fs/promises';

export interface StateCommandOptions {
  dir?: string;
  json?: boolean;
  forceUnlock?: boolean;
  env?: string;
}

/** The repo and the environment whose state a command reads (`--env`, required in a repo with environments). */
async function stateOf(options: StateCommandOptions, io: CommandIo): Promise<{ dir: string; environment: string | undefined }> {
  const { repoAndEnvironment } = await import('./environment.js');
  return repoAndEnvironment(options.dir, options.env, io.env);
}

async function readState(options: StateCommandOptions, io: CommandIo): Promise<{ dir: string; state: StateData; exists: boolean }> {
  const { readStateFile, statePath } = await import('../state/state-file.js');
  const { checkStateEnvironment } = await import('../state/check-environment.js');
  const { dir, environment } = await stateOf(options, io);
  const loaded = await readStateFile(dir, { environment });
  checkStateEnvironment(loaded.state, statePath(dir, environment), environment);
  return { dir, ...loaded };
}

/** The state store of `state rm` and `state compact`, locked, of the chosen environment (and refused when it belongs to another). */
async function lockedStore(options: StateCommandOptions, io: CommandIo) {
  const { StateStore } = await import('../state/state-store.js');
  const { checkStateEnvironment } = await import('../state/check-environment.js');
  const { dir, environment } = await stateOf(options, io);
  const store = await StateStore.load(dir, { lock: true, force: options.forceUnlock, warn: (m) => io.stderr.write(`coursesync: ${m}\n`), environment });
  try {
    checkStateEnvironment(store.data, store.file, environment);
  } catch (e) {
    await store.close();
    throw e;
  }
  return { dir, environment, store };
}

/** `id`, or `uncertain` for a create whose outcome is unknown. */
const idText = (l: LessonState) => l.id ?? 'uncertain';

/** `state list`: every tracked lesson, by key. */
export async function runStateList(options: StateCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { state, exists } = await readState(options, io);
  const rows = Object.entries(state.lessons)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, l]) => ({ key, ...l }));
  if (options.json) {
    printDocument({ lineage: exists ? state.lineage : null, serial: state.serial, lessons: rows.map(({ key, id, program_id, section_id, position, path }) => ({ key, id, program_id, section_id, position, path })) }, io.stdout);
    return ExitCode.Ok;
  }
  if (!exists) {
    io.stderr.write('No state yet: nothing has been applied from this repo.\n');
    return ExitCode.Ok;
  }
  printTable(
    rows,
    [
      { header: 'key', value: (r) => r.key },
      { header: 'id', value: (r) => idText(r) },
      { header: 'section', value: (r) => r.section_id },
      { header: 'position', value: (r) => (r.position === null ? '-' : String(r.position)) },
      { header: 'path', value: (r) => r.path },
    ],
    io.stdout,
  );
  return ExitCode.Ok;
}

/** @throws CoursesyncError `state/unknown-key`, with the nearest key as a hint */
async function unknownKey(state: StateData, key: string): Promise<never> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { suggest } = await import('../compile/suggest.js');
  const near = suggest(key, Object.keys(state.lessons));
  throw failure('state/unknown-key', { key, near });
}

/** `state show KEY`: what the state holds for one lesson. */
export async function runStateShow(key: string, options: StateCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { state } = await readState(options, io);
  const entry = state.lessons[key];
  if (!entry) return unknownKey(state, key);
  if (options.json) {
    printDocument({ key, ...entry }, io.stdout);
    return ExitCode.Ok;
  }
  const { applied, response: _hashes, uncertain, ...where } = entry;
  printRecord(
    {
      key,
      ...where,
      id: idText(entry),
      ...(uncertain ? { uncertain: `create of "${uncertain.name}" in ${uncertain.section_id} at ${uncertain.since}: outcome unknown` } : {}),
      ...Object.fromEntries(Object.entries(applied).map(([f, v]) => [`applied.${f}`, f === 'body' && typeof v === 'string' && v.length > 60 ? `${v.slice(0, 57)}… (${v.length} characters)` : v])),
    },
    io.stdout,
  );
  return ExitCode.Ok;
}

/** `state rm KEY...`: forget lessons (locked, atomic; the school is not changed). */
export async function runStateRm(keys: string[], options: StateCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { store } = await lockedStore(options, io);
  try {
    if (!store.existed) throw failure('state/none', {});
    for (const key of keys) if (!store.data.lessons[key]) await unknownKey(store.data, key);
    const pending = Object.values(store.data.pending).filter((p) => keys.includes(p.key));
    if (pending.length > 0) {
      throw failure('state/pending', { keys: [...new Set(pending.map((p) => p.key))] });
    }
    const removed = keys.map((key) => ({ key, ...store.data.lessons[key]! }));
    await store.update((d) => {
      for (const key of keys) delete d.lessons[key];
    });
    for (const r of removed) {
      io.stdout.write(`Removed ${r.key} from the state (${r.id === null ? 'an uncertain create' : `lesson ${r.id}`} in ${r.section_id}, ${r.path}).\n`);
    }
    io.stdout.write(
      'The school was not changed. A file of the repo with a removed key is created anew by the next apply; ' +
        'delete the file too if the lesson should no longer be managed.\n',
    );
    return ExitCode.Ok;
  } finally {
    await store.close();
  }
}

/**
 * `state compact`: fold the journal a killed apply left (.coursesync/state.journal) into
 * state.json, so the state is one file again (e.g. before committing it). Taking the lock does
 * it (StateStore.load); with no journal, nothing is written.
 */
export async function runStateCompact(options: StateCommandOptions & { salvage?: boolean }, io: CommandIo = processIo()): Promise<number> {
  const { journalPath } = await import('../state/journal.js');
  const { dir, environment } = await stateOf(options, io);
  const warn = (m: string) => io.stderr.write(`coursesync: ${m}\n`);
  if (options.salvage) {
    const { salvageStateJournal } = await import('../apply/salvage-journal.js');
    const r = await salvageStateJournal(dir, { force: options.forceUnlock, warn, environment });
    if (r.salvaged) {
      io.stdout.write(`Salvaged the state journal: folded its ${r.kept} intact record(s) into the state (serial ${r.serial}); left out ${r.damaged.map((d) => `record ${d.record} (${d.problem})`).join(', ')}.\n`);
      if (r.uncertain.length > 0) io.stdout.write(`The journal left ${r.uncertain.length} create(s) pending, now recorded as uncertain: ${r.uncertain.join(', ')}. \`coursesync plan\` shows each with its two ways out.\n`);
      io.stdout.write(`The damaged journal is kept as ${r.keptAs}. A record left out may have held a lesson's new id: check the lessons it names in the school before the next apply (\`coursesync plan --refresh\` reads every tracked one).\n`);
      return ExitCode.Ok;
    }
    // An intact journal (or none): nothing to salvage, folded as a plain compact.
  }
  const had = await access(journalPath(dir, environment)).then(() => true, () => false);
  const { store } = await lockedStore(options, io);
  await store.close();
  if (store.foldError) {
    const { failure } = await import('../diagnostics/error-codes/index.js');
    throw failure('state/fold-failed', { file: store.file, journal: store.journalFile, reason: store.foldError.message });
  }
  io.stdout.write(had ? `Folded the journal into ${store.file} (serial ${store.data.serial}).\n` : 'No journal: the state file is complete.\n');
  return ExitCode.Ok;
}

/** Add `state list|show|rm|compact`. */
export function register(program: Command): void {
  const state = program.command('state').description('What the state records: which school lesson each repo key is (list, show, rm, compact)');
  const dirOption = (c: Command) =>
    c
      .option('--dir <dir>', 'the course repo (default: found from the current folder upward)')
      .option('--env <name>', 'the environment whose state to use (required in a repo with environments; default COURSESYNC_ENV)');
  dirOption(state.command('list').description('Every lesson the state tracks: key, id, section, position, file').option('--json', 'print JSON')).action(
    async (options: StateCommandOptions) => {
      process.exitCode = await runStateList(options);
    },
  );
  dirOption(state.command('show').description('What the state holds for one lesson').argument('<key>', 'the lesson key').option('--json', 'print JSON')).action(
    async (key: string, options: StateCommandOptions) => {
      process.exitCode = await runStateShow(key, options);
    },
  );
  dirOption(
    state
      .command('rm')
      .description('Forget lessons (the school is not changed): e.g. one deleted in the school; the next apply creates its file anew')
      .argument('<keys...>', 'lesson keys')
      .option('--force-unlock', 'take the state lock even if another apply seems to hold it'),
  ).action(async (keys: string[], options: StateCommandOptions) => {
    process.exitCode = await runStateRm(keys, options);
  });
  dirOption(
    state
      .command('compact')
      .description('Fold the journal a killed apply left (.coursesync/state.journal) into state.json, e.g. before committing the state')
      .option('--salvage', 'a damaged journal: keep its intact records, record its pending creates as uncertain, keep the damaged file as state.journal.damaged-<serial>')
      .option('--force-unlock', 'take the state lock even if another apply seems to hold it'),
  ).action(async (options: StateCommandOptions & { salvage?: boolean }) => {
    process.exitCode = await runStateCompact(options);
  });
}
