/**
 * The coursesync program: its root command and the table of its top-level commands. A run loads
 * the module of the one command its arguments name; no command, an unknown one or the root's
 * help with more on the line load none: the root then lists each command from its table row
 * (name, usage and description; test/cli/program-table.test.ts keeps every row equal to what its
 * module registers). `--version`, the root's `--help` and completion scripts never load this
 * module (index.ts answers them; the help from a text written from programFor at build time).
 */
import { Command, Help } from 'commander';
import { redactUsageError } from './redact-usage-error.js';
import { addExamples } from './help-examples.js';

/** Each command file exports one function that adds its command to the program. */
type Register = (program: Command) => void;

export interface CommandRow {
  name: string;
  /** What the root's --help lists after the name (`[options] [dir]`). */
  usage: string;
  description: string;
  load: () => Promise<{ register: Register }>;
}

// In the order --help lists them: setting up a repo, the sync workflow, then the rest of the API, then the emulator.
export const COMMANDS: readonly CommandRow[] = [
  {
    name: 'init',
    usage: '[options] [dir]',
    description:
      'Set up a course repo: coursesync.yaml (with --base-url as school.base_url), .gitignore entries, CI workflows, editor settings and, with a token, the program and section folders; never overwrites a file',
    load: () => import('./init.js'),
  },
  { name: 'validate', usage: '[options] [dir]', description: 'Parse and check the course repo: every problem at once, as path:line:col', load: () => import('./validate.js') },
  {
    name: 'plan',
    usage: '[options] [dir]',
    description: 'Show what apply would change in the school (with a token: section ids checked; lessons read only with --refresh)',
    load: () => import('./plan.js'),
  },
  {
    name: 'apply',
    usage: '[options] [plan]',
    description: 'Apply the repo (or a saved plan) to the school: creates, moves and updates in planned order',
    load: () => import('./apply.js'),
  },
  {
    name: 'preview',
    usage: '[options] [dir]',
    description: 'Serve the course as a learner will see it, on 127.0.0.1, reloading on every save (no token, no request to the school)',
    load: () => import('./preview.js'),
  },
  {
    name: 'assets',
    usage: '[options] [dir]',
    description: 'Write the images and files lessons reference into a folder, under content-hashed names, for assets.base_url',
    load: () => import('./assets.js'),
  },
  { name: 'state', usage: '', description: 'What the state records: which school lesson each repo key is (list, show, rm, compact)', load: () => import('./state.js') },
  {
    name: 'import',
    usage: '[options] <lesson-ids...>',
    description: 'Adopt existing school lessons: write one file per lesson into a section folder and record them in state (or --key: adopt into an existing file)',
    load: () => import('./import.js'),
  },
  { name: 'duplicate', usage: '', description: 'Server-side copies (content, media and steps kept) of lessons, sections and programs', load: () => import('./duplicate.js') },
  {
    name: 'clone',
    usage: '[options] <section-dir> <new-dir>',
    description: 'Copy a section folder in the repo (fresh keys, copied_from): apply then creates the copies',
    load: () => import('./clone.js'),
  },
  {
    name: 'webhooks',
    usage: '',
    description: 'Webhooks as code: webhooks.yaml at the repo root (the API cannot delete or update a webhook)',
    load: () => import('./webhooks.js'),
  },
  { name: 'members', usage: '', description: 'Members of the school: list, look up, offer accesses, suspend and ban', load: () => import('./members.js') },
  { name: 'offers', usage: '', description: 'Offers: read one, or delete it (to Trash)', load: () => import('./offers.js') },
  { name: 'badges', usage: '', description: 'Badges: award one to a member', load: () => import('./badges.js') },
  { name: 'custom-code', usage: '', description: "The school's custom code (read only: the API cannot write it)", load: () => import('./custom-code.js') },
  { name: 'sections', usage: '', description: 'Sections of a program', load: () => import('./sections.js') },
  { name: 'auth', usage: '', description: 'The API token: check it against the school', load: () => import('./auth.js') },
  { name: 'completion', usage: '<shell>', description: 'Print a shell completion script: bash, zsh or fish', load: () => import('./completion.js') },
  { name: 'emulator', usage: '[options]', description: 'Run a faithful local school (the whole API) with optional fault injection.', load: () => import('./emulator.js') },
];

/** The root command, with the settings each command copies when it is added (so set first). */
export function rootCommand(version: string): Command {
  return new Command('coursesync')
    .description('Declarative course-as-code: sync a repo of programs, sections and lessons to an online school.')
    .version(version, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (message, write) => write(redactUsageError(message)) })
    .exitOverride();
}

/**
 * The program a run with `args` (the words after `coursesync`, colour switches removed) parses:
 * the root, what addCommandsFor adds for them, the examples and the colour note of every help.
 * The entry runs it; the root's help text written at build time is taken from it (root-help.ts).
 */
export async function programFor(version: string, args: readonly string[]): Promise<Command> {
  const program = rootCommand(version);
  await addCommandsFor(program, args);
  addExamples(program);
  program.addHelpText('after', '\nColour: on a terminal; --no-color or NO_COLOR turns it off, --color or FORCE_COLOR forces it (every command).');
  return program;
}

/**
 * The top-level command that `args` (the words after `coursesync`, colour switches removed)
 * run or ask help for, read as commander reads them: the words before the first option (every
 * word after a `--` among them), the first naming the command, or the second after `help`.
 * `plan --out p.json` and `help plan` name plan; `--help plan` names none (the root's help).
 */
export function commandNamed(args: readonly string[]): string | undefined {
  const operands: string[] = [];
  for (const [i, a] of args.entries()) {
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.length > 1 && a.startsWith('-')) break;
    operands.push(a);
  }
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/**
 * Add what a run needs: the module of the command `args` name, or, when they name none of
 * COMMANDS, a light entry per row (name, usage and description, no module loaded) so that the
 * root's --help lists every command and an unknown name gets commander's did-you-mean.
 */
export async function addCommandsFor(program: Command, args: readonly string[]): Promise<void> {
  const named = commandNamed(args);
  const row = COMMANDS.find((c) => c.name === named);
  if (row) {
    (await row.load()).register(program);
    return;
  }
  const terms = new Map<Command, string>();
  for (const c of COMMANDS) terms.set(program.command(c.name).description(c.description), [c.name, c.usage].filter(Boolean).join(' '));
  const help = new Help();
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? help.subcommandTerm(cmd) });
}

/** Every command, its module loaded (the completion data written at build time, tests). */
export async function addEveryCommand(program: Command): Promise<void> {
  for (const c of COMMANDS) (await c.load()).register(program);
}
