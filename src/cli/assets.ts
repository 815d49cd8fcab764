/**
 * `coursesync assets [dir] --out <folder>`: write every image and file the lessons reference
 * into <folder> under content-addressed names, to be served at assets.base_url by any static
 * host. Prints what was written; an unchanged repo writes nothing.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Command } from 'commander';
import { addDirOptions, repoFolder } from './repo-folder.js';

interface AssetsOptions {
  out: string;
}

/** Add the assets command. */
export function register(program: Command): void {
  addDirOptions(program.command('assets'))
    .description('Write the images and files lessons reference into a folder, under content-hashed names, for assets.base_url')
    .requiredOption('--out <folder>', 'folder to write the files into (served at assets.base_url)')
    .action(async (dir: string | undefined, options: AssetsOptions & { dir?: string }) => {
      process.exitCode = await runAssets(repoFolder(dir, options.dir), options);
    });
}

async function runAssets(dirArg: string | undefined, options: AssetsOptions): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { findRepoRoot } = await import('../source/repo-root.js');
  const dir = await findRepoRoot(dirArg);
  const { loadCourse } = await import('../load/load-course.js');
  const { courseAssets } = await import('../assets/lesson-assets.js');
  const { writeAssets } = await import('../assets/write-assets.js');
  const result = await loadCourse(dir, { cache: true });
  if (!result.desired) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw failure('course/invalid', { dir, errors, action: 'written' }, { diagnostics: result.diagnostics });
  }
  const assets = courseAssets(result.desired);
  const written = await writeAssets(dir, options.out, assets);
  for (const a of written.written) process.stdout.write(`+ ${a.name}  (${a.path})\n`);
  const base = result.desired.config.assets?.base_url;
  process.stdout.write(
    `${written.written.length} new asset file${written.written.length === 1 ? '' : 's'}, ${written.unchanged.length} already in ${options.out}` +
      (base ? `; serve ${options.out} at ${base}\n` : '\n'),
  );
  return ExitCode.Ok;
}
