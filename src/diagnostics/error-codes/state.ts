/** Runtime errors of the state file, plans and apply. */
import { entry, plural } from './entry.js';

/**
 * How to get a damaged state file back without a duplicate: the copy the last apply wrote, not
 * any copy from git (an older one forgets the lessons created since, which would be created again).
 */
const LAST_STATE =
  'put back the state.json the last apply wrote (in CI: the state commit the apply workflow pushed, e.g. `git checkout origin/main -- .coursesync/state.json`); an older copy would make the next apply create again the lessons applied since';

const REPLAN = 'make a new plan with `coursesync plan --out plan.json`';

/** A file a lesson references that does not answer at its URL: its path in the repo, the URL and why. */
export interface UnpublishedFile {
  path: string;
  url: string;
  reason: string;
}

const notPublished = (files: readonly UnpublishedFile[]) =>
  `${files.length === 1 ? 'a file it references is' : `${files.length} files it references are`} not published (${files.map((f) => `${f.path} at ${f.url}: ${f.reason}`).join('; ')})`;

/** The first `max` items, then how many more: an error stays a few lines however big the course. */
const firstOf = (items: readonly string[], max: number, more: string) =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more ${more}`;

/** Lessons by the URL they miss: a thousand lessons showing one unpublished image is one line. */
function byMissingUrl(lessons: ReadonlyArray<{ path: string; files: readonly UnpublishedFile[] }>): string {
  const groups = new Map<string, { reason: string; lessons: string[] }>();
  for (const lesson of lessons) {
    for (const f of lesson.files) {
      const group = groups.get(f.url) ?? { reason: f.reason, lessons: [] };
      group.lessons.push(lesson.path);
      groups.set(f.url, group);
    }
  }
  const lines = [...groups].map(([url, g]) => `${url} (${g.reason}) for ${firstOf(g.lessons, 3, 'lessons')}`);
  return firstOf(lines, 5, 'files');
}

const publishHint = (base: string) =>
  `run \`coursesync assets --out <folder>\` and upload the folder to ${base} (e.g. \`aws s3 sync <folder> s3://…\`, or a GitHub Pages deploy), then apply again`;

export const STATE_ERRORS = {
  'state/unreadable': entry<{ file: string; reason: string; blocked?: boolean }>(
    'the state file cannot be read',
    ({ file, reason }) => `cannot read the state file ${file}: ${reason}`,
    ({ blocked }) => (blocked ? 'move that file away: coursesync keeps its state in this folder' : 'check the file permissions'),
  ),
  'state/not-a-file': entry<{ file: string; kind: string }>(
    'the state file is a FIFO, device or folder, not a regular file',
    ({ file, kind }) => `cannot read the state file ${file}: it is ${kind}, not a regular file`,
    () => `move it away, then ${LAST_STATE}; coursesync has left it untouched`,
  ),
  'state/folder-unwritable': entry<{ folder: string; cause: 'not-a-folder' | 'read-only' | 'permission' | 'other'; detail: string }>(
    'the .coursesync folder cannot be written, so apply sends nothing',
    ({ folder, cause, detail }) =>
      `cannot write the state folder ${folder}: ${
        { 'not-a-folder': 'it is a file, not a folder', 'read-only': 'the file system is read-only', permission: 'this user may not write there (permission denied)', other: detail }[cause]
      }; nothing was sent`,
    ({ cause }) =>
      ({
        'not-a-folder': 'move that file away: coursesync keeps its state in this folder',
        'read-only': 'run apply in a writable checkout (the state is written around every call)',
        permission: 'give this user write permission on the folder (chmod u+w, or chown it), or run apply as its owner',
        other: 'check the folder and its permissions',
      })[cause],
  ),
  'state/corrupt': entry<{ file: string; reason: string }>(
    'the state file is not JSON (truncated or corrupted); left untouched',
    ({ file, reason }) => `the state file ${file} is not valid JSON (${reason}); it may be truncated or corrupted`,
    () => `${LAST_STATE}; coursesync has left it untouched`,
  ),
  'state/newer-version': entry<{ file: string; version: number; supported: number }>(
    'the state file was written by a newer coursesync',
    ({ file, version, supported }) => `the state file ${file} has format version ${version}, newer than this coursesync understands (${supported})`,
    () => 'upgrade coursesync (`npm install -g coursesync@latest`); the file was left untouched',
  ),
  'state/invalid': entry<{ file: string; where: string; problem: string; more: number }>(
    'the state file does not have the shape of a coursesync state',
    ({ file, where, problem, more }) => `the state file ${file} is not a valid coursesync state: at ${where}: ${problem}${more > 0 ? ` (and ${more} more problems)` : ''}`,
    () => `${LAST_STATE}; coursesync has left it untouched`,
  ),
  // The journal's errors never advise deleting it or taking an older state from git: either
  // forgets the lessons it recorded as created, and the next apply would create them again.
  'state/journal-corrupt': entry<{ file: string; record: number; problem: string }>(
    'a record of the state journal is damaged (or edited by hand); left untouched',
    ({ file, record, problem }) => `the state journal ${file} is damaged${record > 0 ? ` at record ${record}` : ''}: ${problem}`,
    () =>
      'run `coursesync state compact --salvage`: it keeps every intact record, records the creates the journal left pending as uncertain and keeps the damaged journal next to the state; do not delete the journal or restore .coursesync/ from git (the lessons it recorded as created would be created again)',
  ),
  'state/journal-mismatch': entry<{ file: string; stateFile: string; why: string }>(
    'the state journal belongs to another state file',
    ({ file, why }) => `the state journal ${file} does not continue the state file: ${why}`,
    ({ stateFile }) =>
      `put back the ${stateFile} this journal continues (the lineage and serial above: \`git log -p -- .coursesync/state.json\` finds it), then run the command again; do not delete the journal: it records lessons created since, which would be created again; coursesync has left both untouched`,
  ),
  'state/fold-failed': entry<{ file: string; journal: string; reason: string }>(
    'the state journal could not be folded into state.json at the end of a run',
    ({ file, journal, reason }) => `could not fold the state journal ${journal} into ${file}: ${reason}; ${file} alone lacks this run's changes`,
    () => 'fix the cause, then run `coursesync state compact` (any command that takes the lock folds it in); do not commit .coursesync/state.json before then, and never delete the journal',
  ),
  'state/write-failed': entry<{ file: string; reason: string }>(
    'the state file cannot be written',
    ({ file, reason }) => `cannot write ${file}: ${reason}`,
    () => 'check free disk space and permissions; the previous file is intact',
  ),
  'state/base-url-mismatch': entry<{ file: string; stateUrl: string | null; baseUrl: string }>(
    'the state belongs to another school',
    ({ file, stateUrl, baseUrl }) => `the state file ${file} belongs to ${stateUrl}, not to ${baseUrl}`,
    () => 'a state belongs to one school: use --base-url / COURSESYNC_BASE_URL of that school, or keep a separate repo (or state) per school',
  ),
  'state/locked': entry<{ file: string; holder?: { pid: number; host: string; started_at: string } | undefined }>(
    'another apply holds the state lock',
    ({ file, holder }) =>
      holder ? `the state is locked by pid ${holder.pid} on ${holder.host} since ${holder.started_at} (${file})` : `cannot take the state lock ${file}: another process keeps taking it`,
    ({ holder }) => (holder ? 'wait for that apply to finish; if it is gone, run again with --force-unlock or delete the lock file' : 'make sure only one apply runs at a time'),
  ),
  'plan/learner-impact': entry<{ count: number; level: string }>(
    'plan --fail-on: the plan has learner impact of that level or worse not acknowledged in the repo',
    ({ count, level }) => `the plan has ${plural(count, 'learner impact')} of level ${level} or worse not acknowledged in the repo (--fail-on ${level})`,
    () => 'see "Learner impact" in the plan; acknowledge reviewed errors with `acknowledge:` in the lesson front-matter or coursesync.yaml',
  ),
  'plan/corrupt': entry<{ file: string; reason: string }>(
    'a saved plan is not JSON',
    ({ file, reason }) => `the plan file ${file} is not valid JSON (${reason})`,
    () => 'save a new plan with `coursesync plan --out plan.json`',
  ),
  'plan/too-large': entry<{ file: string; bytes: number; max: number }>(
    'a saved plan is larger than coursesync can read',
    ({ file, bytes, max }) => `the plan file ${file} is ${Math.round(bytes / 1e6)} MB, more than the ${Math.floor(max / 1e6)} MB a saved plan may have`,
    () => 'apply without a saved plan (`coursesync apply --yes` plans and applies at once), or apply the course in parts',
  ),
  'plan/version': entry<{ file: string; version: number; supported: number }>(
    'a saved plan has another format version',
    ({ file, version, supported }) => `the plan file ${file} has format_version ${version}; this coursesync reads ${supported}`,
    () => 'make the plan with the same coursesync version that applies it',
  ),
  'plan/invalid': entry<{ file?: string | undefined; problem: string }>(
    'a saved plan does not have the shape of a coursesync plan',
    ({ file, problem }) => `the plan${file === undefined ? '' : ` file ${file}`} is not a coursesync plan: ${problem}`,
    () => 'save a new plan with `coursesync plan --out plan.json`',
  ),
  'plan/unresolved-section': entry<{ path: string }>(
    'a section given by name was planned before it was resolved',
    ({ path }) => `the section ${path} is given by name and was not resolved to an id`,
    () => 'resolve sections given by `name:` before planning, or write `id:` in section.yaml',
  ),
  'plan/section-not-found': entry<{ path: string; programId: string; name: string; sections?: string }>(
    'no section of the program has the name section.yaml (or a book chapter) gives',
    ({ path, programId, name }) => `${path}: program ${programId} has no section named "${name}"`,
    ({ sections }) => `names must match exactly once; write \`id:\` in section.yaml (for a book chapter: map its title to the id under \`sections:\` in program.yaml) instead${sections === undefined ? '' : `; sections of the program: ${sections}`}`,
  ),
  'plan/section-ambiguous': entry<{ path: string; programId: string; name: string; count: number; sections?: string }>(
    'several sections of the program have the name section.yaml (or a book chapter) gives',
    ({ path, programId, name, count }) => `${path}: program ${programId} has ${count} sections named "${name}"`,
    ({ sections }) => `names must match exactly once; write \`id:\` in section.yaml (for a book chapter: map its title to the id under \`sections:\` in program.yaml) instead${sections === undefined ? '' : `; sections of the program: ${sections}`}`,
  ),
  'apply/learner-impact': entry<{ count: number; list: string; path: string; rule: string; key: string }>(
    'the plan has error-level learner impact not acknowledged in the repo',
    ({ count, list }) => `the plan has ${plural(count, 'error-level learner impact')} not acknowledged in the repo; nothing was applied: ${list}`,
    ({ path, rule, key }) =>
      `review them with \`coursesync plan\`, then acknowledge each in the repo (front-matter of ${path}: \`acknowledge: [${rule}]\`, or in coursesync.yaml: \`acknowledge: [{rule: ${rule}, lesson: ${key}}]\`) or run apply with --accept-impact`,
  ),
  'apply/asset-unpublished': entry<{ files: UnpublishedFile[]; base: string }>(
    'a lesson references files not published at assets.base_url, so it was not sent',
    ({ files, base }) => `not sent: ${notPublished(files)}; publish with \`coursesync assets --out <folder>\` served at ${base}`,
    ({ base }) => publishHint(base),
  ),
  'apply/assets-unpublished': entry<{ lessons: Array<{ path: string; files: UnpublishedFile[] }>; base: string }>(
    'every lesson to send references files not published at assets.base_url; nothing was sent',
    ({ lessons }) =>
      lessons.length === 1
        ? `the lesson to send references files that are not published; nothing was sent: ${lessons[0]!.path}: ${notPublished(lessons[0]!.files)}`
        : `${lessons.length} lessons to send reference files that are not published; nothing was sent: ${byMissingUrl(lessons)}`,
    ({ base }) => publishHint(base),
  ),
  'apply/stale-plan': entry<{ file: string; why: string }>(
    'a saved plan no longer matches the state, the repo or the school',
    ({ file, why }) => `the saved plan ${file} is stale: ${why}; nothing was applied`,
    () => `${REPLAN}, review it, then run \`coursesync apply plan.json\``,
  ),
  'apply/recreate-with-plan': entry<{ key: string }>(
    '--recreate was given with a saved plan',
    () => '--recreate cannot be used with a saved plan: it changes what the plan must do',
    ({ key }) => `run \`coursesync apply --recreate ${key}\` without a plan file, or \`coursesync plan --out plan.json\` after resolving the uncertain create`,
  ),
  'apply/recreate-unknown': entry<{ key: string }>(
    '--recreate names a key with no uncertain create',
    ({ key }) => `--recreate ${key}: the state has no uncertain create with that key`,
    () => 'run `coursesync plan` to see the uncertain creates (marked `?`) and their keys',
  ),
  'apply/pending-unresolved': entry<{ id: string; key: string; reason: string; read: number; left: number }>(
    'a lesson left pending by an interrupted apply cannot be read back',
    ({ id, key, reason }) => `cannot read back lesson ${id} (key ${key}) after an interrupted call: ${reason}`,
    ({ read, left }) =>
      `the ${plural(read, 'lesson')} read back ${read === 1 ? 'is' : 'are'} recorded and the state keeps the ${plural(left, 'read')} still to do, so the next run goes on from here; nothing else was changed: run \`coursesync apply\` again once the school answers`,
  ),
};
