/** Runtime errors of named environments (docs/environments.md): choosing one, and what belongs to another. */
import { ExitCode } from '../exit-codes.js';
import { entry, plural } from './entry.js';

const firstLessons = (lessons: ReadonlyArray<{ path: string; why: string }>, max = 5) =>
  lessons.length <= max
    ? lessons.map((l) => `${l.path} (${l.why})`).join('; ')
    : `${lessons
        .slice(0, max)
        .map((l) => `${l.path} (${l.why})`)
        .join('; ')}; and ${lessons.length - max} more`;

export const ENVIRONMENT_ERRORS = {
  'environment/not-chosen': entry<{ names: readonly string[] }>(
    'a repo with environments and no --env',
    ({ names }) => `this repo has ${plural(names.length, 'environment')} (${names.join(', ')}) and none was named: coursesync never picks one for you`,
    ({ names }) => `name one with --env (or COURSESYNC_ENV), e.g. --env ${names[0]}`,
    ExitCode.Usage,
  ),
  'environment/unknown': entry<{ name: string; names: readonly string[]; from: string }>(
    'an environment name that coursesync.yaml does not declare',
    ({ name, names, from }) => `${from} names the environment "${name}", which coursesync.yaml does not declare (declared: ${names.join(', ')})`,
    ({ names }) => `use one of ${names.join(', ')}`,
    ExitCode.Usage,
  ),
  'environment/none-declared': entry<{ name: string; from: string }>(
    'an environment named in a repo without environments',
    ({ name, from }) => `${from} names the environment "${name}", but coursesync.yaml declares no environments`,
    () => 'leave out --env (and COURSESYNC_ENV), or declare the environments under `environments:` in coursesync.yaml (docs/environments.md)',
    ExitCode.Usage,
  ),
  'environment/state-mismatch': entry<{ file: string; stamped: string | null; environment: string | null }>(
    'the state file belongs to another environment',
    ({ file, stamped, environment }) =>
      stamped === null
        ? `the state file ${file} has no environment stamp, but it is read for the environment ${environment}`
        : environment === null
          ? `the state file ${file} belongs to the environment ${stamped}, but this repo declares no environments`
          : `the state file ${file} belongs to the environment ${stamped}, not to ${environment}`,
    () => 'a state belongs to one environment: restore this file from git (`git checkout -- <file>`) rather than copying another environment\'s state into it',
  ),
  'environment/program-mismatch': entry<{ file: string; environment: string; program: string; other: string; folder: string }>(
    'the state records a program of another environment',
    ({ file, environment, program, other, folder }) =>
      `the state file ${file} of the environment ${environment} records the program ${program}, which is ${folder}'s program in the environment ${other}`,
    () => 'a state belongs to one environment: restore this file from git, or fix the ids per environment in program.yaml',
  ),
  'environment/address-mismatch': entry<{ environment: string; address: string; from: string; declared?: string | undefined; other?: string | undefined }>(
    'the school address belongs to another environment',
    ({ environment, address, from, declared, other }) =>
      other !== undefined
        ? `${from} gives ${address}, which is the school of the environment ${other}, not of ${environment}`
        : `${from} gives ${address}, but the environment ${environment} is the school ${declared}`,
    ({ environment }) => `leave the address to coursesync.yaml (environments.${environment}.school.base_url): unset COURSESYNC_BASE_URL and --base-url`,
  ),
  'environment/token-mismatch': entry<{ environment: string; variable: string; other: string; otherVariable: string }>(
    'the API token belongs to another environment',
    ({ environment, variable, other, otherVariable }) =>
      `the token for the environment ${environment} (${variable}) is the token of the environment ${other} (${otherVariable}); no request was made`,
    ({ variable }) => `set ${variable} to the token of this environment's school`,
  ),
  'environment/no-token': entry<{ environment: string; variable: string; problem: 'unset' | 'empty' }>(
    'the environment\'s token variable is not set, or empty',
    ({ environment, variable, problem }) => `the environment ${environment} reads its token from ${variable}, which is ${problem === 'unset' ? 'not set' : 'set but empty'}`,
    ({ variable }) => `set ${variable} (in CI: the secret of that GitHub environment), or pass --token-file`,
  ),
  'environment/not-promoted': entry<{ environment: string; source: string; lessons: ReadonlyArray<{ path: string; why: string }>; commit?: string | undefined }>(
    'content not applied to the environment it is promoted from',
    ({ environment, source, lessons, commit }) =>
      `${plural(lessons.length, 'lesson')} would reach ${environment} before ${source} has it (${source} last applied ${commit ? `commit ${commit.slice(0, 12)}` : 'other content'}): ${firstLessons(lessons)}`,
    ({ source }) => `apply to ${source} first (\`coursesync apply --env ${source}\`), check it there, then apply here; --skip-promotion-check overrides this (it is printed in the plan)`,
  ),
} as const;
