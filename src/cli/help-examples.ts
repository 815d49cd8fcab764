/**
 * The "Examples:" block of every command's --help, in one table keyed by the command's path
 * (`members ban`), so a test can check that no command lacks one. programFor (program.ts) adds
 * them after registering the commands.
 */
import type { Command } from 'commander';

const EXAMPLES: Record<string, string[]> = {
  '': ['coursesync init --dir my-course', 'coursesync validate', 'coursesync plan', 'coursesync apply', 'coursesync auth status'],
  init: ['coursesync init                 # in the current folder', 'coursesync init --dir my-course # a new folder', 'COURSESYNC_TOKEN=… coursesync init  # also the program and section folders from the school'],
  validate: ['coursesync validate', 'coursesync validate --dir courses --json | jq .diagnostics'],
  plan: [
    'coursesync plan',
    'coursesync plan --out plan.json && coursesync apply plan.json',
    'coursesync plan --detailed-exitcode   # 0 no changes, 2 changes, 1 error',
    'coursesync plan --format markdown > plan.md',
    'coursesync plan --refresh --json | jq .summary',
  ],
  apply: ['coursesync apply', 'coursesync apply --yes                 # CI: no prompt', 'coursesync apply plan.json --yes', 'coursesync apply --yes --json | jq .status', 'coursesync apply --replace welcome'],
  preview: ['coursesync preview', 'coursesync preview --port 0 --refresh'],
  assets: ['coursesync assets --out public/assets'],
  auth: ['coursesync auth status'],
  'auth status': ['coursesync auth status', 'coursesync auth status --token-file ~/.config/coursesync/token --json'],
  completion: ['coursesync completion bash > ~/.local/share/bash-completion/completions/coursesync', 'coursesync completion zsh > "${fpath[1]}/_coursesync"', 'coursesync completion fish > ~/.config/fish/completions/coursesync.fish'],
  state: ['coursesync state list', 'coursesync state show welcome', 'coursesync state rm old-welcome', 'coursesync state compact'],
  'state list': ['coursesync state list', 'coursesync state list --json | jq -r ".lessons[].key"'],
  'state show': ['coursesync state show welcome', 'coursesync state show welcome --json'],
  'state compact': ['coursesync state compact', 'coursesync state compact && git add .coursesync/state.json'],
  'state rm': ['coursesync state rm old-welcome', 'coursesync state rm old-a old-b'],
  import: ['coursesync import les_123 les_124 --into intro/basics', 'coursesync import les_123 --key welcome', 'coursesync import les_123 --key welcome --write-file'],
  duplicate: ['coursesync duplicate lesson intro/basics/01-welcome.md --to intro/advanced', 'coursesync duplicate section intro/basics --to sec_archive', 'coursesync duplicate program intro --name "Intro (2027)"'],
  'duplicate lesson': ['coursesync duplicate lesson intro/basics/01-welcome.md --to intro/advanced --position 1', 'coursesync duplicate lesson les_123 --to sec_archive --name "Welcome (old)"'],
  'duplicate section': ['coursesync duplicate section intro/basics --to intro/basics-copy'],
  'duplicate program': ['coursesync duplicate program intro --name "Intro (2027)" --into intro-2027'],
  clone: ['coursesync clone intro/basics intro/basics-2 --section sec_new', 'coursesync clone intro/basics intro/extra --section "name:Extra material"'],
  webhooks: ['coursesync webhooks plan', 'coursesync webhooks apply --yes', 'coursesync webhooks list'],
  'webhooks plan': ['coursesync webhooks plan', 'coursesync webhooks plan --detailed-exitcode'],
  'webhooks apply': ['coursesync webhooks apply', 'coursesync webhooks apply --yes --json'],
  'webhooks list': ['coursesync webhooks list', 'coursesync webhooks list --json | jq -r ".webhooks[].webhook_url"'],
  members: ['coursesync members list --all', 'coursesync members get --email ada@example.com', 'coursesync members suspend ada@example.com'],
  'members list': ['coursesync members list', 'coursesync members list --all --json | jq -r ".members[].email"'],
  'members get': ['coursesync members get --email ada@example.com', 'coursesync members get --id mem_1 --json'],
  'members accesses': ['coursesync members accesses', 'coursesync members accesses --member ada@example.com --json'],
  'members suspend': ['coursesync members suspend ada@example.com', 'coursesync members suspend mem_1 --yes'],
  'members unsuspend': ['coursesync members unsuspend ada@example.com --yes'],
  'members ban': ['coursesync members ban ada@example.com', 'coursesync members ban mem_1 --yes --json'],
  'members unban': ['coursesync members unban ada@example.com --yes'],
  offers: ['coursesync offers get off_1', 'coursesync offers delete off_1'],
  'offers get': ['coursesync offers get off_1', 'coursesync offers get off_1 --json'],
  'offers delete': ['coursesync offers delete off_1', 'coursesync offers delete off_1 --yes --json'],
  badges: ['coursesync badges award --badge-name Finisher --email ada@example.com'],
  'badges award': ['coursesync badges award --badge-name Finisher --email ada@example.com', 'coursesync badges award --badge-id bdg_1 --member-id mem_1 --json'],
  'custom-code': ['coursesync custom-code pull --out school-code'],
  'custom-code pull': ['coursesync custom-code pull --out school-code', 'coursesync custom-code pull --json'],
  sections: ['coursesync sections list intro', 'coursesync sections list prog_intro --scaffold courses/intro'],
  'sections list': ['coursesync sections list intro', 'coursesync sections list prog_intro --json', 'coursesync sections list prog_intro --scaffold courses/intro'],
  emulator: ['coursesync emulator --port 4010', 'coursesync emulator --latency-ms 300 --fail-rate 0.1'],
};

/** The examples of the command at `path` (`''` for the program itself), or undefined. */
export function examplesOf(path: string): readonly string[] | undefined {
  return EXAMPLES[path];
}

/** Add an "Examples:" block to the help of `command` and of every command under it. */
export function addExamples(command: Command, path: string[] = []): void {
  const lines = examplesOf(path.join(' '));
  if (lines) command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`);
  for (const sub of command.commands) addExamples(sub, [...path, sub.name()]);
}
