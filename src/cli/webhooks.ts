/**
 * `coursesync webhooks plan|apply|list`: webhooks.yaml as code. Plan compares the file with
 * GET /webhooks by identity (url + event type + normalised filters); apply creates what is
 * missing with POST /webhooks, one at a time; webhooks in the school but not in the file are
 * reported as extra and left alone, because the API has no delete or update endpoint.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Command } from 'commander';
import type { Webhook } from '../school-api/wire/webhooks.js';
import type { WebhooksPlan } from '../webhooks/diff-webhooks.js';
import { addDirOptions, repoFolder } from './repo-folder.js';
import { addSchoolOptions, explained, openSchool, planFormat, processIo, type CommandIo, type SchoolFlags } from './school-command.js';
import { colors, confirm, printDocument, printTable } from './terminal.js';
import { appendFile } from 'node:fs/promises';

export interface WebhooksPlanOptions extends SchoolFlags {
  json?: boolean;
  format?: string;
  detailedExitcode?: boolean;
}

export interface WebhooksApplyOptions extends SchoolFlags {
  yes?: boolean;
  json?: boolean;
}

export interface WebhooksListOptions extends SchoolFlags {
  json?: boolean;
}

/**
 * The webhooks plan of the repo at `dir`: webhooks.yaml against GET /webhooks.
 * @throws CoursesyncError for a missing or invalid webhooks.yaml, or a failed request
 */
export async function buildWebhooksPlan(dir: string, flags: SchoolFlags, io: CommandIo = processIo()): Promise<{ plan: WebhooksPlan; client: import('../school/client.js').SchoolClient }> {
  const { readWebhooksFile, diffWebhooks } = await import('../webhooks/index.js');
  const desired = await readWebhooksFile(dir);
  const client = await openSchool({ ...flags, dir }, io);
  const live = await explained(client.webhooks.list());
  return { plan: diffWebhooks(desired, live), client };
}

/** `webhooks plan [dir]`; returns the exit code (2 with --detailed-exitcode when apply would create). */
export async function runWebhooksPlan(dir: string, options: WebhooksPlanOptions, io: CommandIo = processIo()): Promise<number> {
  const format = planFormat(options);
  const { plan } = await buildWebhooksPlan(dir, options, io);
  const { renderWebhooksText, renderWebhooksMarkdown, renderWebhooksJson, webhooksPlanHasChanges } = await import('../webhooks/index.js');
  const color = colors(io.stdout).isColorSupported;
  io.stdout.write(format === 'json' ? renderWebhooksJson(plan) : format === 'markdown' ? renderWebhooksMarkdown(plan) : renderWebhooksText(plan, { color }));
  // As lesson plans do: in GitHub Actions the Markdown plan also goes to the job summary.
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    await appendFile(summaryFile, renderWebhooksMarkdown(plan) + '\n');
  }
  return options.detailedExitcode && webhooksPlanHasChanges(plan) ? ExitCode.Changes : ExitCode.Ok;
}

/**
 * `webhooks apply [dir]`: create the webhooks the plan lists, after confirmation (or --yes).
 * POST /webhooks is never re-sent after it may have reached the school; if its outcome is
 * unknown the next plan shows whether it exists (identity needs no state file).
 */
export async function runWebhooksApply(dir: string, options: WebhooksApplyOptions, io: CommandIo = processIo()): Promise<number> {
  const { CoursesyncError } = await import('../diagnostics/errors.js');
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { renderWebhooksText, webhooksSummaryLine } = await import('../webhooks/index.js');
  const { plan, client } = await buildWebhooksPlan(dir, options, io);
  const creates = plan.changes.flatMap((c) => (c.action === 'create' ? [c] : []));
  if (!options.json) io.stdout.write(renderWebhooksText(plan, { color: colors(io.stdout).isColorSupported }));
  const created: Webhook[] = [];
  if (creates.length > 0) {
    const ok = await confirm(`Create ${creates.length} webhook${creates.length === 1 ? '' : 's'} in the school?`, { yes: options.yes });
    if (!ok) {
      io.stderr.write('Nothing was created.\n');
      return ExitCode.Cancelled;
    }
    for (const c of creates) {
      try {
        created.push(await explained(client.webhooks.create(c.request)));
      } catch (e) {
        const done = created.map((w) => `${w.id} (${w.event_type} → ${w.webhook_url})`).join(', ') || 'none';
        const reason = e instanceof Error ? e.message : String(e);
        const causeHint = e instanceof CoursesyncError ? e.hint : undefined;
        throw failure('webhooks/apply-failed', { place: `${plan.file}:${c.line}`, reason, done, causeHint }, { cause: e });
      }
      if (!options.json && io.stdout.isTTY) io.stderr.write(`created ${created.at(-1)!.id} (${c.event_type} → ${c.webhook_url})\n`);
    }
  }
  if (options.json) {
    printDocument({ created, plan }, io.stdout);
  } else {
    const lines = created.map((w) => `Created ${w.id}: ${w.event_type} → ${w.webhook_url}`);
    lines.push(creates.length === 0 ? webhooksSummaryLine(plan) : `Apply complete: ${created.length} webhook${created.length === 1 ? '' : 's'} created.`);
    io.stdout.write(lines.join('\n') + '\n');
  }
  return ExitCode.Ok;
}

/** `webhooks list`: the school's webhooks (GET /webhooks). */
export async function runWebhooksList(options: WebhooksListOptions, io: CommandIo = processIo()): Promise<number> {
  const client = await openSchool(options, io);
  const hooks = await explained(client.webhooks.list());
  if (options.json) {
    printDocument({ webhooks: hooks }, io.stdout);
    return ExitCode.Ok;
  }
  printTable(
    hooks,
    [
      { header: 'id', value: (w) => w.id },
      { header: 'event', value: (w) => w.event_type },
      { header: 'url', value: (w) => w.webhook_url },
      { header: 'provider', value: (w) => w.provider },
      { header: 'filters', value: (w) => (Object.keys(w.extra_parameters).length === 0 ? '-' : JSON.stringify(w.extra_parameters)) },
    ],
    io.stdout,
  );
  if (hooks.length === 0 && io.stdout.isTTY) io.stderr.write('The school has no webhooks.\n');
  return ExitCode.Ok;
}

const WEBHOOKS_DIR_HELP = 'folder of the course repo, holding webhooks.yaml (default: the current folder)';

/** Add `webhooks plan|apply|list`. */
export function register(program: Command): void {
  const webhooks = program.command('webhooks').description('Webhooks as code: webhooks.yaml at the repo root (the API cannot delete or update a webhook)');
  addSchoolOptions(
    addDirOptions(webhooks.command('plan'), WEBHOOKS_DIR_HELP)
      .description('Show which webhooks of webhooks.yaml apply would create, and which school webhooks the file does not list')
      .option('--json', 'print the plan as JSON (same as --format json)')
      .option('--format <format>', 'output format: text, markdown or json (default: text)')
      .option('--detailed-exitcode', 'exit 0 when there is nothing to create, 1 on error, 2 when apply would create webhooks'),
    { dir: false },
  ).action(async (dir: string | undefined, options: WebhooksPlanOptions) => {
    process.exitCode = await runWebhooksPlan(repoFolder(dir, options.dir) ?? '.', options);
  });
  addSchoolOptions(
    addDirOptions(webhooks.command('apply'), WEBHOOKS_DIR_HELP)
      .description('Create the webhooks of webhooks.yaml that the school does not have')
      .option('-y, --yes', 'do not ask for confirmation (required when not run in a terminal)')
      .option('--json', 'print the created webhooks and the plan as JSON'),
    { dir: false },
  ).action(async (dir: string | undefined, options: WebhooksApplyOptions) => {
    process.exitCode = await runWebhooksApply(repoFolder(dir, options.dir) ?? '.', options);
  });
  addSchoolOptions(
    webhooks.command('list').description("List the school's webhooks").option('--json', 'print them as JSON'),
  ).action(async (options: WebhooksListOptions) => {
    process.exitCode = await runWebhooksList(options);
  });
}
