/**
 * `coursesync init [dir]`: set up a course repo: coursesync.yaml with every option commented,
 * the .gitignore entries, the two GitHub workflows and the editor's schema settings. Run again,
 * it adds only what is missing and says which files it kept as they were.
 */
import type { Command } from 'commander';
import { ExitCode } from './exit-codes.js';

/** Add the init command. */
export function register(program: Command): void {
  program
    .command('init')
    .description('Set up a course repo: coursesync.yaml, .gitignore entries, CI workflows and editor settings; never overwrites a file')
    .argument('[dir]', 'folder of the course repo (default: the current folder)')
    .addHelpText('after', '\nExamples:\n  $ coursesync init\n  $ coursesync init my-course\n')
    .action(async (dir: string | undefined) => {
      process.exitCode = await runInit(dir);
    });
}

async function runInit(dirArg: string | undefined): Promise<number> {
  const { findRepoRoot } = await import('../source/repo-root.js');
  const { initRepo } = await import('../source/init-repo.js');
  // Named explicitly, so never searched upward; still refused inside another course repo,
  // whose state would then track the same lessons twice.
  const dir = await findRepoRoot(dirArg ?? '.');
  const steps = await initRepo(dir);
  const mark = { written: '+', extended: '~', unchanged: '=', kept: '!' } as const;
  for (const s of steps) {
    const what = { written: 'written', extended: `added ${s.detail ?? ''}`, unchanged: 'already there', kept: `kept as it is: ${s.detail ?? ''}` }[s.outcome];
    process.stdout.write(`${mark[s.outcome]} ${s.path}  (${what})\n`);
  }
  const changed = steps.filter((s) => s.outcome === 'written' || s.outcome === 'extended').length;
  process.stdout.write(
    changed === 0
      ? 'Nothing to add: the repo is set up.\n'
      : 'Next: add a program folder (a folder holding program.yaml with `id: <program id>`), a section folder in it (section.yaml) and a lesson (.md), then run `npx coursesync validate`.\n',
  );
  return ExitCode.Ok;
}
