/** Runtime errors of finding the repo, planning against the school, applying, and the state commands. */
import { entry, plural } from './entry.js';

const them = (n: number) => (n === 1 ? 'it' : 'them');

export const SYNC_ERRORS = {
  'repo/nested': entry<{ inner: string; outer: string; marker: string; own?: string | undefined; ownPath?: string | undefined }>(
    'a folder given as a course repo lies inside another course repo',
    ({ inner, outer, marker, own }) =>
      own
        ? `${inner} holds ${own} but lies inside the course repo ${outer} (which holds ${marker}): one repo would be tracked twice and every lesson created again`
        : `${inner} lies inside the course repo ${outer} (which holds ${marker}); working on it as a repo of its own would create every lesson a second time`,
    ({ outer, own, ownPath }) =>
      own
        ? `keep one course repo: remove ${ownPath ?? own} if it was made by mistake (its state tracks lessons the outer repo also tracks), or move the folder out of ${outer}`
        : `run the command without a folder argument (it finds ${outer} by itself), or give ${outer}`,
  ),
  'plan/needs-token': entry<{ why: string; byName: string[] }>(
    'the plan needs the school (a section by name, --refresh) and no API token is set',
    ({ why }) => `${why}, which needs the school API, but no API token is set`,
    ({ byName }) =>
      byName.length > 0
        ? `set COURSESYNC_TOKEN (or pass --token-file), or write \`id: <section id>\` in ${byName.map((p) => `${p}/section.yaml`).join(', ')} so plan needs no request`
        : 'set COURSESYNC_TOKEN (or pass --token-file), or plan without --refresh',
  ),
  'plan/sections-invalid': entry<{ count: number }>(
    'section ids of the repo are not in the school, or belong to another program',
    ({ count }) => `${plural(count, 'section')} of the repo ${count === 1 ? 'is' : 'are'} not in the school as written; nothing was planned or sent`,
    () => 'fix the files named above (`coursesync sections list <program folder>` lists the sections of a program), then plan again',
  ),
  'state/lesson-gone': entry<{ gone: ReadonlyArray<{ key: string; id: string; path: string }> }>(
    'a tracked lesson is gone from the school (404)',
    ({ gone }) => `the school has no lesson ${gone.map((g) => `${g.id} (key ${g.key}, ${g.path})`).join(', ')}: deleted in the school, or the state points elsewhere; nothing was changed`,
    ({ gone }) => {
      const keys = gone.map((g) => g.key);
      return (
        `to create ${them(keys.length)} anew from the repo: \`coursesync apply ${keys.map((k) => `--replace ${k}`).join(' ')}\`; ` +
        `to stop managing ${them(keys.length)}: delete the file${keys.length === 1 ? '' : 's'} and run \`coursesync state rm ${keys.join(' ')}\`; ` +
        `\`coursesync state show ${keys[0] ?? ''}\` shows what the state holds`
      );
    },
  ),
  'state/unknown-key': entry<{ key: string; near?: string | undefined }>(
    'the state tracks no lesson with that key',
    ({ key }) => `the state tracks no lesson with the key ${key}`,
    ({ near }) => (near ? `did you mean ${near}? (\`coursesync state list\` shows every key)` : '`coursesync state list` shows every key'),
  ),
  'state/none': entry(
    'there is no state file: nothing has been applied from this repo',
    () => 'there is no state to remove from: nothing has been applied from this repo',
    () => 'run `coursesync state list` in the course repo',
  ),
  'state/pending': entry<{ keys: string[] }>(
    'an interrupted apply left a call pending for the key, so it cannot be forgotten yet',
    ({ keys }) => `an interrupted apply left a call pending for ${keys.join(', ')}; forgetting it now could lose a lesson it created`,
    () => 'run `coursesync apply` first: it resolves the pending calls; then remove the key',
  ),
  'apply/replace-with-plan': entry<{ key: string }>(
    '--replace was given with a saved plan',
    () => '--replace cannot be used with a saved plan: it changes what the plan must do',
    ({ key }) => `run \`coursesync apply --replace ${key}\` without a plan file`,
  ),
  'apply/replace-unknown': entry<{ key: string; problem: string }>(
    '--replace names a key the state does not track or no lesson file has',
    ({ key, problem }) => `--replace ${key}: ${problem}`,
    () => '`coursesync state list` shows the tracked keys; --replace creates the lesson of a repo file anew',
  ),
  'apply/no-target': entry<{ target: string }>(
    'the folder or plan file given to apply does not exist',
    ({ target }) => `${target} does not exist`,
    () => 'give the course repo folder, or a plan file saved with `coursesync plan --out plan.json`',
  ),
  'apply/failed': entry<{ failed: number; total: number }>(
    'some calls of the apply failed; the state records what was done',
    ({ failed, total }) => `${failed} of ${total} calls were not applied (see above)`,
    () => 'fix what the messages above point at, then run `coursesync apply` again: it continues from the state',
  ),
  'apply/uncertain': entry<{ count: number }>(
    'creates from an earlier apply have an unknown outcome',
    ({ count }) => `${count} create(s) from an earlier apply have an unknown outcome and were not applied`,
    () => 'check the school; adopt an existing lesson with `coursesync import <lesson id> --key KEY`, or create it again with `coursesync apply --recreate KEY`',
  ),
  // --replace: nothing is forgotten before the apply runs, and never a lesson the school still has.
  'apply/replace-exists': entry<{ key: string; id: string; path: string }>(
    '--replace names a lesson the school still has',
    ({ key, id, path }) => `--replace ${key}: the school still has lesson ${id} (${path}); creating it anew would leave two copies`,
    ({ key, id }) =>
      `to keep it, run \`coursesync apply\` without --replace (it updates ${id} in place); to start over, delete lesson ${id} in the school first, then run \`coursesync apply --replace ${key}\` again`,
  ),
  'apply/replace-uncertain': entry<{ key: string }>(
    '--replace names an uncertain create',
    ({ key }) => `--replace ${key}: the state records an uncertain create for it (the school may or may not hold it), so there is no id to check`,
    ({ key }) => `check the school: adopt the lesson with \`coursesync import <lesson id> --key ${key}\`, or create it again with \`coursesync apply --recreate ${key}\``,
  ),
  'apply/replace-unchecked': entry<{ key: string; id: string; reason: string }>(
    '--replace could not check that the old lesson is gone',
    ({ key, id, reason }) => `--replace ${key}: could not read lesson ${id} from the school to check that it is gone: ${reason}; nothing was changed`,
    () => 'run the command again once the school answers',
  ),
  'plan/section-twice': entry<{ id: string; folders: Array<{ path: string; ref: string }> }>(
    'two section folders resolve to one school section (one by name, one by id)',
    ({ id, folders }) => `${folders.map((f) => `${f.path}/section.yaml (${f.ref})`).join(' and ')} both resolve to section ${id}; one section has one folder, and its lessons would be merged and reordered silently`,
    () => 'move the lessons into one of the folders and remove the other, or point one section.yaml at another section (`coursesync sections list <program>` lists them)',
  ),
  'import/write-file-needs-key': entry(
    '--write-file without --key',
    () => '--write-file writes into the existing file of a key: give --key KEY',
    () => 'e.g. `coursesync import les_1 --key welcome --write-file`',
  ),
};
