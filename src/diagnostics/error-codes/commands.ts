/** Runtime errors of command arguments, repo folders, configuration, webhooks.yaml and the emulator. */
import { ExitCode } from '../exit-codes.js';
import { entry, plural } from './entry.js';

export const COMMAND_ERRORS = {
  'assets/refused': entry<{ path: string; real: string }>(
    'a referenced file leads outside what a lesson may publish',
    ({ path, real }) => `${path} is a link to ${real}, outside the repo or inside a hidden folder or node_modules: it is not copied`,
    () => 'run `coursesync validate`: it names the lesson that references the file',
  ),
  'assets/changed': entry<{ path: string }>('a referenced file changed while the assets were written', ({ path }) => `${path} changed while the assets were being written`, () => 'run `coursesync assets` again'),
  'cli/bad-port': entry<{ port: string }>('--port is not a port number', ({ port }) => `--port ${port} is not a port number from 0 to 65535`, () => 'e.g. --port 4300, or --port 0 for a free one', ExitCode.Usage),
  'cli/port-in-use': entry<{ port: number }>('the port to listen on is taken', ({ port }) => `port ${port} on 127.0.0.1 is already in use`, () => 'pick another with --port, or --port 0 for a free one'),
  'cli/bad-impact-level': entry<{ option: string; value: string }>(
    'an unknown learner-impact level',
    ({ option, value }) => `${option} ${value} is not a learner-impact level`,
    ({ option }) => `use ${option} error, warning or info`,
    ExitCode.Usage,
  ),
  'cli/bad-number': entry<{ flag: string; max: number; value: string }>(
    'a numeric option is not a whole number in range',
    ({ flag, max, value }) => `${flag} must be a whole number from 1 to ${max}, not "${value}"`,
    ({ flag }) => `e.g. ${flag} 2`,
    ExitCode.Usage,
  ),
  'cli/bad-format': entry<{ format: string; allowed?: string }>('an unknown --format', ({ format }) => `unknown format "${format}"`, ({ allowed }) => `use --format ${allowed ?? 'text, markdown or json'}`, ExitCode.Usage),
  'cli/conflicting-options': entry<{ options: string; hint: string }>('options that cannot be combined', ({ options }) => `${options} cannot be combined`, ({ hint }) => hint, ExitCode.Usage),
  'cli/member-selector': entry<{ options: string; example: string }>(
    'not exactly one way to name the member',
    ({ options }) => `exactly one of ${options} is needed`,
    ({ example }) => `e.g. ${example}`,
    ExitCode.Usage,
  ),
  'cli/badge-selector': entry(
    'not exactly one of --badge-id and --badge-name',
    () => 'exactly one of --badge-id or --badge-name is needed',
    () => 'e.g. coursesync badges award --badge-name Finisher --email ada@example.com',
    ExitCode.Usage,
  ),
  'cli/missing-option': entry<{ what: string; example: string }>('a required option is missing', ({ what }) => what, ({ example }) => `e.g. ${example}`, ExitCode.Usage),
  'cli/needs-yes': entry<{ question: string; plan?: boolean }>(
    'a change needs confirmation and there is no terminal to ask',
    ({ question }) => `not run in a terminal, so nobody can confirm: ${question.replace(/\?$/, '')}`,
    ({ plan }) => (plan ? 'review the plan with `coursesync plan`, then re-run with --yes (CI: `coursesync apply --yes`)' : 're-run the command with --yes to confirm without a prompt'),
  ),
  'cli/interrupted': entry<{ question: string }>(
    'Ctrl-C (or SIGTERM) before a change was confirmed',
    ({ question }) => `interrupted before confirming (${question.replace(/\?$/, '')}); nothing was changed`,
    () => undefined,
    ExitCode.Interrupted,
  ),
  'source/not-a-folder': entry<{ dir: string }>('the repo path is not a folder', ({ dir }) => `${dir} is not a folder`, () => 'give the folder of the course repo'),
  'source/not-found': entry<{ dir: string; reason: string }>(
    'the repo folder cannot be read',
    ({ dir, reason }) => `cannot read the course repo ${dir}: ${reason}`,
    () => 'give the folder of the course repo, e.g. `coursesync validate examples`',
  ),
  // The reader met a file other than the one it digested (an editor or checkout writing meanwhile).
  'source/changed-while-reading': entry<{ file: string; what: string }>(
    'a course file changed while coursesync was reading the repo',
    ({ file, what }) => `${file} changed while coursesync was reading the repo: ${what}`,
    () => 'run the command again once nothing is writing to the repo',
  ),
  'config/unreadable': entry<{ file: string; reason: string }>(
    'coursesync.yaml cannot be read',
    ({ file, reason }) => `cannot read ${file} (${reason})`,
    () => 'check the permissions of the file, or pass --dir with the folder of your course repo',
  ),
  'config/invalid': entry<{ dir: string }>(
    'coursesync.yaml has errors',
    ({ dir }) => `coursesync.yaml in ${dir} is invalid`,
    () => 'fix the file at the places named above (see schema/coursesync.schema.json)',
  ),
  'sections/not-a-program': entry<{ arg: string; problem: 'not-a-folder' | 'no-program-yaml' | 'invalid' }>(
    'the argument is neither a program folder nor a program id',
    ({ arg, problem }) =>
      problem === 'not-a-folder' ? `${arg} is not a folder (and a program id has no slash)` : problem === 'no-program-yaml' ? `${arg} is a folder without program.yaml` : `${arg} is invalid`,
    ({ problem }) =>
      problem === 'not-a-folder'
        ? 'give a program folder holding program.yaml, or a program id such as prog_intro'
        : problem === 'no-program-yaml'
          ? 'give a program folder (one holding program.yaml with `id: <program id>`), or the program id itself'
          : 'fix program.yaml at the places named above',
  ),
  'sections/scaffold-exists': entry<{ clashes: string[] }>(
    '--scaffold would overwrite files',
    ({ clashes }) => `--scaffold would overwrite ${plural(clashes.length, 'existing file')}: ${clashes.join(', ')}; nothing was written`,
    () => 'scaffold into an empty folder, or move those files away first',
  ),
  'members/accesses-unattributed': entry(
    "the school's accesses do not say whose they are",
    () => "the school's access list does not say which member each access belongs to, so it cannot be filtered by member",
    () => 'run `coursesync members accesses` without --member to see every access',
  ),
  'custom-code/write-failed': entry<{ dir: string; reason: string }>(
    'the custom code files cannot be written',
    ({ dir, reason }) => `cannot write the custom code to ${dir} (${reason})`,
    () => 'give --out a folder you can write to',
  ),
  'webhooks/no-file': entry<{ file: string; dir: string }>(
    'the repo has no webhooks.yaml',
    ({ file, dir }) => `there is no ${file} in ${dir}`,
    ({ file }) => `create ${file} at the repo root with a list of webhooks (see docs/school-commands.md#webhooks-as-code), or pass the repo folder: coursesync webhooks plan <dir>`,
  ),
  'webhooks/unreadable': entry<{ path: string; reason: string }>(
    'webhooks.yaml cannot be read',
    ({ path, reason }) => `cannot read ${path} (${reason})`,
    () => 'check the permissions of the file',
  ),
  'webhooks/invalid': entry<{ file: string; errors: number }>(
    'webhooks.yaml has errors',
    ({ file, errors }) => `${file} has ${plural(errors, 'error')}; nothing was planned`,
    ({ file }) => `fix ${file} at the places named above, then run the command again`,
  ),
  'webhooks/apply-failed': entry<{ place: string; reason: string; done: string; causeHint?: string | undefined }>(
    'creating a webhook failed; the ones created before it are named',
    ({ place, reason, done }) => `creating the webhook of ${place} failed: ${reason.replace(/\.$/, '')}; created before it: ${done}`,
    ({ causeHint }) =>
      `${causeHint ? `${causeHint.replace(/\.$/, '')}; ` : ''}run \`coursesync webhooks plan\` to see what exists now: a webhook already created shows as unchanged, so running apply again creates only what is missing`,
  ),
  'emulator/port-in-use': entry<{ where: string }>(
    'the emulator port is taken',
    ({ where }) => `cannot listen on ${where}: the port is already in use`,
    () => 'stop the other process, or pass --port 0 to pick a free port',
  ),
  'emulator/port-denied': entry<{ where: string }>('the emulator may not listen on that port', ({ where }) => `cannot listen on ${where}: permission denied`, () => 'use a port above 1023, or --port 0'),
  'emulator/bad-host': entry<{ where: string }>(
    'the emulator host is not an address of this machine',
    ({ where }) => `cannot listen on ${where}: no such local address`,
    () => 'pass an address of this machine to --host, e.g. 127.0.0.1',
  ),
  'emulator/seed-unreadable': entry<{ path: string; reason: string }>(
    'the seed file cannot be read',
    ({ path, reason }) => `cannot read seed file ${path}: ${reason}`,
    () => 'pass an existing YAML file to --seed, or leave --seed out to use the default school',
  ),
  'emulator/bad-seed': entry<{ place: string; problem: string; kind: 'yaml' | 'schema' | 'reference' }>(
    'the seed file is not a valid seed',
    ({ place, problem, kind }) =>
      kind === 'yaml' ? `${place}: the seed is not valid YAML: ${problem}` : kind === 'schema' ? `${place}: invalid seed at ${problem}` : `${place}: invalid seed: ${problem}`,
    ({ kind }) =>
      kind === 'yaml'
        ? 'fix the YAML syntax at that place'
        : kind === 'reference'
          ? 'define every id the seed refers to once in the same seed'
          : 'see the seed format in docs/school-api.md#choices-where-the-api-is-silent or docs/development.md#the-emulator',
  ),
};
