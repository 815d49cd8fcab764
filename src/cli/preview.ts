/**
 * `coursesync preview [dir]`: serve the course as a learner will see it on 127.0.0.1, recompiled
 * on every save (src/preview/). Needs no token and sends nothing to the school. Runs until
 * Ctrl-C.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
import { addDirOptions, repoFolder } from './repo-folder.js';
import { resolve } from 'node:path';
import { fstatSync } from 'node:fs';

interface PreviewCommandOptions extends ConnectionFlags {
  port: string;
  refresh?: boolean;
  env?: string;
}

/** Add the preview command. */
export function register(program: Command): void {
  addDirOptions(program.command('preview'))
    .description('Serve the course as a learner will see it, on 127.0.0.1, reloading on every save (no token, no request to the school)')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4300')
    .option('--refresh', "read the sections' drip delays, publication and order from the school (GET /sections only; needs a token)")
    .option('--base-url <url>', 'school API address (implies --refresh; overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN (implies --refresh)')
    .option('--env <name>', 'the environment of coursesync.yaml to preview (required in a repo with environments; default COURSESYNC_ENV)')
    .action(async (dir: string | undefined, options: PreviewCommandOptions & { dir?: string }) => {
      process.exitCode = await runPreview(repoFolder(dir, options.dir), options);
    });
}

/** Standard output and error when they are files (`preview > log 2>&1`): the preview writes them, they are never the course. */
async function ownOutputs(): Promise<Array<{ dev: number; ino: number }>> {
  return [1, 2].flatMap((fd) => {
    try {
      const st = fstatSync(fd);
      return st.isFile() ? [{ dev: st.dev, ino: st.ino }] : [];
    } catch {
      return [];
    }
  });
}

async function runPreview(dirArg: string | undefined, options: PreviewCommandOptions): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { findRepoRoot } = await import('../source/repo-root.js');
  const dir = await findRepoRoot(dirArg);
  const { chooseEnvironment } = await import('./environment.js');
  const environment = await chooseEnvironment(dir, options.env, process.env);
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw failure('cli/bad-port', { port: String(options.port) });
  }
  const { startPreview } = await import('../preview/preview-server.js');
  let readSections: import('../preview/school-sections.js').SectionReader | undefined;
  // Connection flags mean the school should be read: they imply --refresh.
  if (options.refresh || options.baseUrl !== undefined || options.tokenFile !== undefined) {
    const { createSectionReader } = await import('../preview/school-sections.js');
    readSections = createSectionReader(options, process.env, environment);
  }
  let preview: Awaited<ReturnType<typeof startPreview>>;
  try {
    preview = await startPreview({
      dir: resolve(dir),
      port,
      readSections,
      environment,
      ownOutputs: await ownOutputs(),
      onError: (e) => process.stderr.write(`coursesync: internal error in the preview (a bug in coursesync, please report it); still serving the last page\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`),
      onCompile: (c) =>
        process.stderr.write(
          `compiled ${c.lessons} lesson${c.lessons === 1 ? '' : 's'} in ${Math.round(c.ms)} ms` +
            (c.errors + c.warnings > 0 ? ` (${c.errors} error${c.errors === 1 ? '' : 's'}, ${c.warnings} warning${c.warnings === 1 ? '' : 's'}: see the page)` : '') +
            '\n',
        ),
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw failure('cli/port-in-use', { port });
    }
    throw e;
  }
  process.stdout.write(`preview on ${preview.url}\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void preview.close().then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return ExitCode.Ok;
}
