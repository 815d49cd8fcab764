/**
 * `coursesync init [dir]`: set up a course repo: coursesync.yaml with every option commented,
 * the .gitignore entries, the two GitHub workflows and the editor settings. With a token
 * (COURSESYNC_TOKEN or --token-file) it also adds the program and section folders from the
 * school; `--base-url` is written into coursesync.yaml as `school.base_url`. Run again, it adds
 * only what is missing and says which files it kept as they were.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Command } from 'commander';
import { addDirOptions, repoFolder } from './repo-folder.js';
import { addSchoolOptions, processIo, type CommandIo, type SchoolFlags } from './school-command.js';

interface InitOptions extends SchoolFlags {
  program?: string[];
}

/** Add the init command. */
export function register(program: Command): void {
  addSchoolOptions(
    addDirOptions(program.command('init'), 'folder of the course repo (default: the current folder; created when missing)')
      .description('Set up a course repo: coursesync.yaml (with --base-url as school.base_url), .gitignore entries, CI workflows, editor settings and, with a token, the program and section folders; never overwrites a file')
      .option('--program <id>', 'with a token: add a folder for this program and its sections (repeatable)', (v: string, all: string[] | undefined) => [...(all ?? []), v]),
    { dir: false },
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ coursesync init\n  $ coursesync init --dir my-course\n  $ COURSESYNC_TOKEN=… coursesync init --program prog_intro --base-url https://school.example.com/api/v1\n  $ COURSESYNC_TOKEN=… coursesync init   # adds folders for sections new in the school\n',
    )
    .action(async (dir: string | undefined, options: InitOptions) => {
      process.exitCode = await runInit(repoFolder(dir, options.dir), options, processIo());
    });
}

async function runInit(dirArg: string | undefined, options: InitOptions, io: CommandIo): Promise<number> {
  const { findRepoRoot } = await import('../source/repo-root.js');
  const { initRepo } = await import('../source/init-repo.js');
  const { REMARK_PACKAGES } = await import('../source/init-templates.js');
  // Named explicitly, so never searched upward; still refused inside another course repo,
  // whose state would then track the same lessons twice.
  const dir = await findRepoRoot(dirArg ?? '.');
  // --base-url is checked before any file is written, then kept in coursesync.yaml.
  const { checkBaseUrl } = await import('../school/base-url.js');
  const baseUrl = options.baseUrl === undefined ? undefined : checkBaseUrl(options.baseUrl, '--base-url');
  const steps = await initRepo(dir, { baseUrl });
  // The school is asked only when a program is named or a token is at hand (a re-run then adds
  // the folders of sections created in the school since).
  const programIds = options.program ?? [];
  const withSchool = programIds.length > 0 || options.tokenFile !== undefined || Boolean(io.env.COURSESYNC_TOKEN);
  if (withSchool) {
    const { openSchool } = await import('./school-command.js');
    const { initPrograms } = await import('../source/init-programs.js');
    const { listProgramSections } = await import('../school/program-sections.js');
    const client = await openSchool({ ...options, dir }, io);
    steps.push(...(await initPrograms(dir, { programIds, sectionsOf: (id) => listProgramSections(client, id) })));
  }
  const mark = { written: '+', extended: '~', unchanged: '=', kept: '!' } as const;
  for (const s of steps) {
    const what = { written: 'written', extended: `added ${s.detail ?? ''}`, unchanged: s.detail ?? 'already there', kept: `kept as it is: ${s.detail ?? ''}` }[s.outcome];
    io.stdout.write(`${mark[s.outcome]} ${s.path}  (${what})\n`);
  }
  const changed = steps.filter((s) => s.outcome === 'written' || s.outcome === 'extended').length;
  const hasPrograms = steps.some((s) => s.path.endsWith('program.yaml'));
  io.stdout.write(
    changed === 0
      ? 'Nothing to add: the repo is set up.\n'
      : hasPrograms
        ? 'Next: write a lesson (a .md file with `name:` in its front-matter) in a section folder, then run `npx coursesync validate` and `npx coursesync plan`.\n'
        : 'Next: add the program folders: run init again with a token and `--program <id>`, or write a folder holding program.yaml with `id: <program id>`, a section folder in it (section.yaml) and a lesson (.md); then run `npx coursesync validate`.\n',
  );
  if (changed > 0) io.stdout.write(`Lesson front-matter in the editor: \`npm install --save-dev ${REMARK_PACKAGES.join(' ')}\` (docs/editors.md).\n`);
  return ExitCode.Ok;
}
