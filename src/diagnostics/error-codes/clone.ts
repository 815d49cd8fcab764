/** Runtime errors of import, duplicate and clone: commands that write lesson files. */
import { entry, plural } from './entry.js';

const JOURNAL = '.coursesync/duplications.json';

export const CLONE_ERRORS = {
  'course/invalid': entry<{ dir: string; errors: number; action: 'changed' | 'cloned' | 'written' | 'planned' }>(
    'the course repo has errors, so the command changed nothing',
    ({ dir, errors, action }) => `the course repo ${dir} has ${plural(errors, 'error')}; nothing was ${action}`,
    () => 'fix the files named above (`coursesync validate` lists them), then run the command again',
  ),
  'clone/not-a-section': entry<{ arg: string; dir: string; idAllowed?: boolean }>(
    'the folder is not a section folder of the repo',
    ({ arg, dir, idAllowed }) => (idAllowed ? `${arg} is not a folder (and a section id has no slash)` : `${arg} is not a section folder of the course repo ${dir}`),
    ({ idAllowed }) =>
      idAllowed
        ? 'give a section folder of the repo, or a section id such as sec_start'
        : 'give a folder holding section.yaml, directly inside a program folder (one holding program.yaml) of the repo; `coursesync sections list <program> --scaffold DIR` writes them',
  ),
  'clone/bad-target': entry<{ to: string; example: string }>(
    'the new folder is not directly inside a program folder',
    ({ to }) => `${to} must be a new folder directly inside a program folder (one holding program.yaml) of the repo`,
    ({ example }) => `e.g. ${example}`,
  ),
  'clone/target-exists': entry<{ to: string }>(
    'the new folder exists and is not empty',
    ({ to }) => `${to} exists and is not empty; nothing was cloned`,
    () => 'give a new folder',
  ),
  'clone/section-taken': entry<{ path: string; section: string }>(
    'another folder already names that section',
    ({ path, section }) => `${path} already is the section ${section}; two folders cannot name one section`,
    () => 'give --section another section of the program (`coursesync sections list <program>` lists them)',
  ),
  'clone/no-free-name': entry<{ before: string; after: string; count: number }>(
    'no file-name number is free at the asked position',
    ({ before, after, count }) => `no free file-name number between ${before} and ${after} to place the new lesson${count === 1 ? '' : 's'} there`,
    () => 'leave gaps in the numeric prefixes of the folder (e.g. 10-, 20-, 30-), or list the lesson order in section.yaml `lessons:` after the copy is made',
  ),
  'clone/section-has-lessons-list': entry<{ path: string }>(
    'the section lists its lessons, so a new file would make the repo invalid',
    ({ path }) => `${path}/section.yaml lists its lessons (\`lessons:\`), so a new lesson file there would make the repo invalid; nothing was changed`,
    () => 'remove `lessons:` from that section.yaml (file names then give the order), run the command, then put the list back with the new key',
  ),
  'clone/journal-invalid': entry<{ file: string; reason?: string | undefined }>(
    'the duplication journal cannot be read',
    ({ file, reason }) => (reason !== undefined ? `cannot read ${file}: ${reason}` : `${file} is not a valid duplication journal; nothing was changed`),
    ({ reason }) => (reason !== undefined ? 'check the file permissions' : 'restore it from git, or delete it if no duplication is in progress (a re-run then may copy again)'),
  ),
  'import/no-ids': entry('no lesson id was given', () => 'no lesson id given', () => 'e.g. `coursesync import les_1 les_2 --into my-program/01-start`'),
  'import/duplicate-id': entry('a lesson id was given twice', () => 'a lesson id is given twice', () => 'give each lesson id once'),
  'import/into-or-key': entry<{ both: boolean }>(
    'exactly one of --into and --key is needed',
    ({ both }) => (both ? '--key and --into cannot be used together' : 'say where the lessons go: --into <section folder>, or --key KEY for an existing file'),
    () => '`--into DIR` writes new files; `--key KEY` adopts one lesson into the existing file of KEY (state only)',
  ),
  'import/key-one-id': entry<{ count: number; key: string }>(
    '--key adopts exactly one lesson',
    ({ count }) => `--key adopts one lesson, and ${count} ids were given`,
    ({ key }) => `run \`coursesync import <id> --key ${key}\` once per lesson`,
  ),
  'import/unknown-key': entry<{ key: string }>(
    'no lesson file has the --key',
    ({ key }) => `no lesson file of the repo has the key ${key}`,
    () => 'give the key of an existing lesson file (its `key:` or its file name without the number prefix); to write a new file use --into',
  ),
  'import/key-tracked': entry<{ key: string; tracked: string; id: string }>(
    'the key already tracks another lesson',
    ({ key, tracked, id }) => `the key ${key} already tracks lesson ${tracked}, not ${id}; nothing was changed`,
    () => 'adopt into a key whose create is uncertain (marked ? in the plan) or not applied yet',
  ),
  'import/already-tracked': entry<{ id: string; key: string; path: string }>(
    'the lesson is already tracked by another file',
    ({ id, key, path }) => `lesson ${id} is already tracked as key ${key} (${path}); nothing was imported`,
    () => 'a school lesson can back only one file; edit that file instead, or remove its state entry first',
  ),
  'import/file-exists': entry<{ clashes: string[] }>(
    'import would overwrite files',
    ({ clashes }) => `import would overwrite ${clashes.join(', ')}; nothing was written`,
    () => 'move those files away, import into another section folder, or adopt a lesson into an existing file with --key KEY',
  ),
  'import/unrepresentable': entry<{ id: string; name: string; problem: string }>(
    'a school lesson cannot be written as a valid lesson file',
    ({ id, name, problem }) => `lesson ${id} "${name}" cannot be written as a valid lesson file: ${problem}; nothing was written`,
    () => 'change that content in the school (or leave the lesson out), then run the command again',
  ),
  'duplicate/no-source': entry<{ arg: string; dir: string; notAFile: boolean }>(
    'the source is neither a lesson file of the repo nor a lesson id',
    ({ arg, dir, notAFile }) => (notAFile ? `${arg} is not a readable lesson file (and a lesson id has no slash)` : `${arg} is not a lesson file of the course repo ${dir}`),
    ({ notAFile }) => (notAFile ? 'give a lesson file of the repo, or a school lesson id' : 'give a *.md file inside a section folder, or a school lesson id'),
  ),
  'duplicate/not-applied': entry<{ paths: string[] }>(
    'a lesson to copy is not in the school yet',
    ({ paths }) => `${paths.join(', ')} ${paths.length === 1 ? 'is' : 'are'} not in the school yet (no lesson id in state); nothing was copied`,
    () => 'run `coursesync apply` first, or copy the files in the repo with `coursesync clone`',
  ),
  'duplicate/empty-section': entry<{ path: string }>(
    'the section folder has no lessons to copy',
    ({ path }) => `${path} has no lessons to copy`,
    () => 'give a section folder holding lesson files',
  ),
  'duplicate/bad-option': entry(
    '--name and --position are only for copying one lesson',
    () => "--name and --position are for `duplicate lesson`; a section copy keeps each lesson's name and order",
    () => 'drop --name/--position',
  ),
  'duplicate/position-needs-folder': entry<{ sectionId: string }>(
    '--position needs the destination as a folder of the repo',
    ({ sectionId }) => `--position needs the destination as a section folder of the repo, and the repo has none for section ${sectionId}`,
    () => 'create the folder (`coursesync sections list <program> --scaffold DIR`) and give it with --to',
  ),
  'duplicate/job-conflict': entry<{ what: string; other: string; jobId: string }>(
    'an unfinished duplication of the same source has other details',
    ({ what, other }) => `an interrupted duplication of ${what} is recorded with ${other}; its copies may already exist, so nothing was sent`,
    ({ jobId }) => `run the command again with the same details to finish it (a re-run never makes a second copy); to drop it, delete "${jobId}" from ${JOURNAL}`,
  ),
  'duplicate/operation-failed': entry<{ what: string; reason: string }>(
    'the school could not make a copy',
    ({ what, reason }) => `the school could not copy ${what}: ${reason}`,
    () => 'nothing was written for it; run the same command again to retry it as a new operation (copies already made are not made again)',
  ),
  'duplicate/key-conflict': entry<{ what: string; reason: string; program: boolean }>(
    'the school refused a copy: its idempotency key was used with other details',
    ({ what, reason, program }) =>
      `the school refused the copy of ${what}: ${reason.replace(/\.$/, '')}; ${program ? "the idempotency key was already used with other details, or the copy's name is too long" : 'the idempotency key was already used for a duplication with other details (source, destination or name), or a detail is invalid'}`,
    ({ program }) =>
      program
        ? 'use another --request-id (or none) for a copy with other details, and a name of at most 255 characters'
        : 'use another --request-id (or none) for a copy with other details; a re-run of the same command with the same details is always safe',
  ),
  'duplicate/no-lesson-id': entry<{ sourceId: string; operationId: string; name: string; folder: string }>(
    "a copy's operation result names no lesson id",
    ({ sourceId, operationId }) => `the school copied lesson ${sourceId} (operation ${operationId} completed), but its result names no lesson id, so coursesync cannot write or track the copy`,
    ({ name, folder }) => `find the copy in the school${name ? ` (named "${name}")` : ''} and adopt it by id: \`coursesync import <lesson id> --into ${folder}\``,
  ),
  'duplicate/file-exists': entry<{ path: string; lessonId: string; folder: string }>(
    "the copy's file name is taken by another file",
    ({ path, lessonId }) => `${path} exists and is not the copy this duplication wrote; the copy ${lessonId} was made but not written`,
    ({ lessonId, folder }) => `move that file away and run the same command again, or adopt the copy with \`coursesync import ${lessonId} --into ${folder}\``,
  ),
  'duplicate/place-failed': entry<{ key: string; reason: string }>(
    'the copies were made and written, but placing one failed',
    ({ key, reason }) => `the copies were made and written, but placing ${key} failed: ${reason}`,
    () => 'run `coursesync apply`: it finishes the placement from the state',
  ),
  'duplicate/folder-exists': entry<{ into: string; programId?: string | undefined; clashes?: string[] | undefined }>(
    "the program copy's folder exists",
    ({ into, programId, clashes }) =>
      programId === undefined ? `${into} already holds a program.yaml; nothing was copied` : `the copy ${programId} was made, but writing its folder would overwrite ${(clashes ?? []).join(', ')}`,
    ({ programId }) =>
      programId === undefined
        ? 'give --into a new or empty folder'
        : `run the same command again with --into <a new folder> (it resumes the same copy), or \`coursesync sections list ${programId} --scaffold DIR\``,
  ),
  'duplicate/no-program': entry<{ operationId: string }>(
    'a program copy completed without naming the new program',
    ({ operationId }) => `operation ${operationId} completed without the new program`,
    () => 'look for the copy in the school, then `coursesync sections list <id> --scaffold DIR`',
  ),
  // clone --section with a bare value: an id or a name, resolved through the school.
  'clone/section-unclear': entry<{ value: string }>(
    'clone --section got a bare value and no API token to tell an id from a name',
    ({ value }) => `--section ${value}: is it a section id or a section name? Without an API token clone cannot look it up`,
    ({ value }) => `write --section id:${value} or --section name:${value}, or set COURSESYNC_TOKEN so clone looks it up`,
  ),
  'clone/section-unknown': entry<{ value: string; programId: string; sections: string[] }>(
    'clone --section names no section of the program, by id or by name',
    ({ value, programId, sections }) => `--section ${value}: program ${programId} has no section with that id or name (it has ${sections.length > 0 ? sections.join(', ') : 'no section'})`,
    ({ programId }) => `give the id or the exact name of a section (\`coursesync sections list ${programId}\` lists them), or create the section in the school first`,
  ),
};
