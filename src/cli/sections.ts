/**
 * `coursesync sections list <program-dir|program-id> [--group ID] [--scaffold DIR]` (docs/school-api.md#sections):
 * every section of a program, page after page. `--scaffold` starts a repo from an existing
 * program: one folder per section with a section.yaml (`id:`, the name as a comment, because
 * section.yaml takes id or name, not both), plus program.yaml when the folder has none. It never
 * overwrites a file.
 */
import type { Command } from 'commander';
import type { Section } from '../school-api/wire/sections.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { addSchoolOptions, explained, openSchool, processIo, type CommandIo, type SchoolFlags } from './school-command.js';
import { printDocument, printTable } from './terminal.js';
import { join } from 'node:path';
import { access } from 'node:fs/promises';

export interface SectionsListOptions extends SchoolFlags {
  group?: string;
  scaffold?: string;
  json?: boolean;
}

/** `sections list`: prints every section (and scaffolds with --scaffold). */
export async function runSectionsList(arg: string, options: SectionsListOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { resolveProgramId } = await import('../sync/resolve-program-id.js');
  const { programFolderFiles } = await import('../model/program-folder.js');
  const programId = await resolveProgramId(arg, options.env ?? (io.env.COURSESYNC_ENV?.trim() || undefined));
  const client = await openSchool(options, io);
  const sections: Section[] = [];
  const query = options.group === undefined ? { product_id: programId } : { product_id: programId, section_group_id: options.group };
  await explained(
    (async () => {
      for await (const s of client.sections.list(query)) sections.push(s);
    })(),
    options.group === undefined ? `program ${programId}` : `program ${programId} or section group ${options.group} in it`,
  );
  if (options.scaffold !== undefined) {
    const { writeNewFiles } = await import('../source/program-scaffold.js');
    const dir = options.scaffold;
    const exists = async (p: string) => access(p).then(() => true, () => false);
    const all = programFolderFiles(programId, sections);
    // program.yaml is kept when present (the folder may already be this program); section files never are.
    const files = (await exists(join(dir, 'program.yaml'))) ? all.slice(1) : all;
    const clashes = [];
    for (const f of files) if (await exists(join(dir, f.path))) clashes.push(join(dir, f.path));
    if (clashes.length > 0) {
      throw failure('sections/scaffold-exists', { clashes });
    }
    await writeNewFiles(dir, files);
    if (!options.json && io.stderr.isTTY) io.stderr.write(`Wrote ${files.length} file${files.length === 1 ? '' : 's'} under ${dir}: ${files.map((f) => f.path).join(', ')}.\n`);
  }
  if (options.json) {
    printDocument({ program_id: programId, sections }, io.stdout);
    return ExitCode.Ok;
  }
  printTable(
    sections,
    [
      { header: 'id', value: (s) => s.id },
      { header: 'name', value: (s) => s.name },
      { header: 'group', value: (s) => s.section_group_id ?? '-' },
      { header: 'position', value: (s) => String(s.position) },
      { header: 'published', value: (s) => (s.is_published ? 'yes' : 'no') },
    ],
    io.stdout,
  );
  return ExitCode.Ok;
}

/** Add `sections list`. */
export function register(program: Command): void {
  const sections = program.command('sections').description('Sections of a program');
  addSchoolOptions(
    sections
      .command('list')
      .description('List every section of a program (all pages); --scaffold writes section folders to start a repo')
      .argument('<program>', 'a program folder (holding program.yaml) or a program id')
      .option('--group <id>', 'only the sections of this section group, in their order')
      .option('--scaffold <dir>', 'write program.yaml (if missing) and one folder with section.yaml per section into this folder; never overwrites')
      .option('--json', 'print JSON'),
  ).action(async (arg: string, options: SectionsListOptions) => {
    process.exitCode = await runSectionsList(arg, options);
  });
}
