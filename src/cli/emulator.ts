/**
 * `coursesync emulator`: run the local school (docs/school-api.md#choices-where-the-api-is-silent) until SIGINT/SIGTERM. The first stdout
 * line is exactly `listening on http://HOST:PORT/api/v1`, so scripts can wait for it; the next
 * lines name the API keys and a command to try.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { RunningEmulator } from '../emulator/index.js';

function intOption(name: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} takes a whole number of 0 or more, got "${text}".`);
    return n;
  };
}

function rateOption(name: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!(text.trim() !== '' && n >= 0 && n <= 1)) throw new InvalidArgumentError(`${name} takes a share between 0 and 1 (e.g. 0.1), got "${text}".`);
    return n;
  };
}

/** The smallest seed that makes a school to sync to, shown by `emulator --help`. */
const MINIMAL_SEED_HELP = `A minimal seed (save as school.yaml, run with --seed school.yaml): one API key, one program, one section.
  api_keys:
    - { token: my-token, programs: all }
  programs:
    - id: prog_mine
      name: My course
      sections:
        - { id: sec_first, name: First steps, position: 1 }
Without --seed: the school examples/ syncs to, with the API key demo-token.
`;

/**
 * What follows the listening line: the API keys and a command to try. The default seed's keys
 * are public (docs/development.md) and printed; a seed file's keys are someone's own choice, so
 * only counted, never printed (a seed may hold a token copied from elsewhere).
 */
function startBanner(emulator: RunningEmulator, seedFile: string | undefined): string {
  const programs = (p: 'all' | readonly string[]) => (p === 'all' ? 'every program' : `programs ${p.join(', ')}`);
  if (seedFile !== undefined) {
    const n = emulator.apiKeys.length;
    return `api keys: the ${n === 1 ? 'token' : `${n} tokens`} in ${seedFile} (not printed)\ntry: COURSESYNC_BASE_URL=${emulator.url} COURSESYNC_TOKEN=<a token of ${seedFile}> npx coursesync plan\n`;
  }
  const keys = emulator.apiKeys.map((k) => `api key: ${k.token} (${programs(k.programs)})\n`).join('');
  return `${keys}try: COURSESYNC_BASE_URL=${emulator.url} COURSESYNC_TOKEN=${emulator.apiKeys[0]!.token} npx coursesync plan\n`;
}

interface EmulatorFlags {
  host: string;
  port: number;
  seed?: string;
  latencyMs: number;
  failRate: number;
  rateLimit: number;
  operationDelayMs: number;
  dropAfterCommitRate: number;
  dropBeforeProcessRate: number;
  failOperations: boolean;
  allowInsecureWebhooks: boolean;
}

export function register(program: Command): void {
  program
    .command('emulator')
    .description('Run a faithful local school (the whole API) with optional fault injection.')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', intOption('--port'), 4010)
    .option('--seed <file>', 'seed YAML (default: the school examples/ syncs to)')
    .option('--latency-ms <n>', 'answer every API request this many milliseconds after it arrives', intOption('--latency-ms'), 0)
    .option('--fail-rate <r>', 'answer this share of requests with 500 or 503 (not saved)', rateOption('--fail-rate'), 0)
    .option('--rate-limit <n>', 'answer 429 past N requests a second per key (0 = off)', intOption('--rate-limit'), 0)
    .option('--operation-delay-ms <n>', 'time until a duplication completes', intOption('--operation-delay-ms'), 200)
    .option('--drop-after-commit-rate <r>', 'save this share of requests, then drop the connection', rateOption('--drop-after-commit-rate'), 0)
    .option('--drop-before-process-rate <r>', 'drop this share of connections before processing', rateOption('--drop-before-process-rate'), 0)
    .option('--fail-operations', 'duplication operations end failed', false)
    .option('--allow-insecure-webhooks', 'accept http:// and private webhook addresses (local receivers)', false)
    .addHelpText('after', `\n${MINIMAL_SEED_HELP}`)
    .action(async (flags: EmulatorFlags) => {
      const { startEmulator } = await import('../emulator/index.js');
      const emulator = await startEmulator({
        host: flags.host,
        port: flags.port,
        ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
        latencyMs: flags.latencyMs,
        failRate: flags.failRate,
        rateLimit: flags.rateLimit,
        operationDelayMs: flags.operationDelayMs,
        dropAfterCommitRate: flags.dropAfterCommitRate,
        dropBeforeProcessRate: flags.dropBeforeProcessRate,
        failOperations: flags.failOperations,
        allowInsecureWebhooks: flags.allowInsecureWebhooks,
      });
      // Handlers first, then the line: a caller may signal as soon as it reads the line.
      const stopped = new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          emulator.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      process.stdout.write(`listening on ${emulator.url}\n`);
      process.stdout.write(startBanner(emulator, flags.seed));
      await stopped;
      process.exitCode = ExitCode.Ok;
    });
}
