/**
 * `coursesync emulator`: run the local school (docs/school-api.md#choices-where-the-api-is-silent) until SIGINT/SIGTERM. The first stdout
 * line is exactly `listening on http://HOST:PORT/api/v1`, so scripts can wait for it.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { ExitCode } from '../diagnostics/exit-codes.js';

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
      await stopped;
      process.exitCode = ExitCode.Ok;
    });
}
