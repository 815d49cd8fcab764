/** `coursesync webhooks plan|apply|list` in-process against the real emulator: plan → apply → plan with no changes. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWebhooksApply, runWebhooksList, runWebhooksPlan } from '../../src/cli/webhooks.js';
import { useSchool } from '../cli/school-helpers.js';

const school = useSchool();
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function repo(yaml: string | null): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-webhooks-'));
  dirs.push(dir);
  if (yaml !== null) await writeFile(join(dir, 'webhooks.yaml'), yaml);
  return dir;
}

const YAML = `# yaml-language-server: $schema=../schema/webhooks.schema.json
- webhook_url: https://hooks.example.com/payments
  event_type: new_payment
  provider: zapier
- webhook_url: https://hooks.example.com/offers
  event_type: member_joining_offer
  extra_parameters:
    offerFilter: off_pro
- webhook_url: https://hooks.example.com/chat
  event_type: conversation_message_received
  extra_parameters: { user_ids: [u2, u1], author_types: [members] }
`;

describe('webhooks plan → apply → plan', () => {
  it('plans three creates (exit 2), applies them, then plans no changes (exit 0), and the school agrees', async () => {
    const dir = await repo(YAML);
    const first = school.io();
    expect(await runWebhooksPlan(dir, { detailedExitcode: true, json: true }, first)).toBe(2);
    const plan = JSON.parse(first.stdout.text);
    expect(plan.summary).toEqual({ create: 3, unchanged: 0, extra: 0 });
    expect(school.emu.stats().byRoute['POST /webhooks'] ?? 0).toBe(0);

    const apply = school.io();
    expect(await runWebhooksApply(dir, { yes: true }, apply)).toBe(0);
    expect(apply.stdout.text).toMatch(/Created whk_\d+: new_payment → https:\/\/hooks\.example\.com\/payments\n/);
    expect(apply.stdout.text).toMatch(/Apply complete: 3 webhooks created\.\n$/);
    const inSchool = (await school.state()).webhooks;
    expect(inSchool.map((w: any) => [w.event_type, w.webhook_url, w.provider, w.extra_parameters])).toEqual([
      ['new_payment', 'https://hooks.example.com/payments', 'zapier', {}],
      ['member_joining_offer', 'https://hooks.example.com/offers', 'api', { offerFilter: 'off_pro' }],
      ['conversation_message_received', 'https://hooks.example.com/chat', 'api', { user_ids: ['u2', 'u1'], author_types: ['members'] }],
    ]);

    const second = school.io();
    expect(await runWebhooksPlan(dir, { detailedExitcode: true }, second)).toBe(0);
    expect(second.stdout.text).toBe('No changes. 3 webhooks unchanged.\n');

    // Apply again: nothing to create, no confirmation needed, no request but the list.
    const again = school.io();
    expect(await runWebhooksApply(dir, {}, again)).toBe(0);
    expect(school.emu.stats().byRoute['POST /webhooks']).toBe(3);
  });

  it('the same filters written differently are the same webhook (one id vs a list, order)', async () => {
    await school.client().webhooks.create({ webhook_url: 'https://hooks.example.com/offers', event_type: 'member_joining_offer', extra_parameters: { offerFilter: ['off_pro'] } });
    await school.client().webhooks.create({ webhook_url: 'https://hooks.example.com/chat', event_type: 'conversation_message_received', extra_parameters: { author_types: 'members', user_ids: ['u1', 'u2'] } });
    const io = school.io();
    await runWebhooksPlan(await repo(YAML), { json: true }, io);
    expect(JSON.parse(io.stdout.text).changes.map((c: any) => c.action)).toEqual(['create', 'unchanged', 'unchanged']);
  });

  it('webhooks in the school but not in the file are extra: reported with why they stay, never a change', async () => {
    const old = await school.client().webhooks.create({ webhook_url: 'https://old.example.com/hook', event_type: 'member_inactivity' });
    const dir = await repo('[]\n');
    const text = school.io();
    expect(await runWebhooksPlan(dir, { detailedExitcode: true }, text)).toBe(0);
    expect(text.stdout.text).toContain(`! ${old.id} member_inactivity → https://old.example.com/hook (no filters)`);
    expect(text.stdout.text).toContain("the API has no delete or update endpoint for webhooks: remove it in the school's admin UI");
    expect(text.stdout.text).toMatch(/No changes\. 0 webhooks unchanged, 1 extra \(in the school, not in webhooks\.yaml\)\.\n$/);
    const md = school.io();
    await runWebhooksPlan(dir, { format: 'markdown' }, md);
    expect(md.stdout.text).toMatch(/^### coursesync webhooks plan/);
    expect(md.stdout.text).toContain('⚠ extra');
  });

  it('apply off a TTY without --yes refuses and creates nothing', async () => {
    const io = school.io();
    const e = await school.fails(runWebhooksApply(await repo(YAML), {}, io));
    expect(e.code).toBe('cli/needs-yes');
    expect(e.message).toMatch(/Create 3 webhooks in the school/);
    expect((await school.state()).webhooks).toEqual([]);
  });

  it('apply --json: the created webhooks and the plan', async () => {
    const io = school.io();
    await runWebhooksApply(await repo(YAML), { yes: true, json: true }, io);
    const out = JSON.parse(io.stdout.text);
    expect(out.format_version).toBe(1);
    expect(out.created.map((w: any) => w.event_type)).toEqual(['new_payment', 'member_joining_offer', 'conversation_message_received']);
    expect(out.plan.summary.create).toBe(3);
  });

  it('an invalid webhooks.yaml: every problem with file:line:col, no request', async () => {
    const before = school.emu.stats().requests;
    const e = await school.fails(runWebhooksPlan(await repo('- webhook_url: http://hooks.example.com\n  event_type: new_paymnt\n'), {}, school.io()));
    expect(e.code).toBe('webhooks/invalid');
    expect(e.diagnostics.map((d: any) => [d.file, d.line, d.column, d.code])).toEqual([['webhooks.yaml', 2, 15, 'webhooks/invalid-field']]);
    expect(school.emu.stats().requests).toBe(before);
  });

  it('no webhooks.yaml: says how to start one', async () => {
    const e = await school.fails(runWebhooksPlan(await repo(null), {}, school.io()));
    expect(e.code).toBe('webhooks/no-file');
    expect(e.hint).toMatch(/create webhooks\.yaml at the repo root/);
  });

  it('GITHUB_STEP_SUMMARY gets the Markdown plan, as for lesson plans', async () => {
    const dir = await repo(YAML);
    const summary = join(dir, 'summary.md');
    await runWebhooksPlan(dir, { json: true }, school.io({ env: { GITHUB_STEP_SUMMARY: summary } }));
    const text = await readFile(summary, 'utf8');
    expect(text).toMatch(/^### coursesync webhooks plan\n\n\*\*Webhooks plan: 3 to create, 0 unchanged\.\*\*/);
  });

  it('an unknown --format is refused', async () => {
    expect((await school.fails(runWebhooksPlan(await repo(YAML), { format: 'yaml' }, school.io()))).code).toBe('cli/bad-format');
  });

  it('a bad token: 401 naming COURSESYNC_TOKEN', async () => {
    const e = await school.fails(runWebhooksPlan(await repo(YAML), {}, school.io({ token: 'nope' })));
    expect(e.code).toBe('connection/unauthorized');
    expect(e.hint).toMatch(/COURSESYNC_TOKEN/);
  });

  it('the base URL comes from coursesync.yaml of the repo when nothing else gives it', async () => {
    const dir = await repo(YAML);
    await writeFile(join(dir, 'coursesync.yaml'), `school:\n  base_url: ${school.emu.url}\n`);
    const io = school.io({ env: { COURSESYNC_BASE_URL: '' } });
    expect(await runWebhooksPlan(dir, { detailedExitcode: true }, io)).toBe(2);
  });
});

describe('webhooks list', () => {
  it('JSON holds the school’s list under `webhooks`, versioned; off a TTY one tab-separated line each; on a TTY a table', async () => {
    await school.client().webhooks.create({ webhook_url: 'https://hooks.example.com/a', event_type: 'gamification_level_passed', extra_parameters: { activeLevels: [3] } });
    const json = school.io();
    await runWebhooksList({ json: true }, json);
    expect(JSON.parse(json.stdout.text)).toEqual({ format_version: 1, webhooks: [expect.objectContaining({ event_type: 'gamification_level_passed', extra_parameters: { activeLevels: [3] } })] });
    const plain = school.io();
    await runWebhooksList({}, plain);
    expect(plain.stdout.text).toMatch(/^whk_\d+\tgamification_level_passed\thttps:\/\/hooks\.example\.com\/a\tapi\t\{"activeLevels":\[3\]\}\n$/);
    const tty = school.io({ tty: true });
    await runWebhooksList({}, tty);
    expect(tty.stdout.text).toMatch(/ID\s+EVENT\s+URL\s+PROVIDER\s+FILTERS/);
  });

  it('no token in any output of the webhooks commands', async () => {
    const dir = await repo(YAML);
    await runWebhooksPlan(dir, { json: true }, school.io());
    await runWebhooksApply(dir, { yes: true }, school.io({ tty: true }));
    await runWebhooksList({}, school.io({ tty: true }));
    await school.fails(runWebhooksPlan(dir, {}, school.io({ token: 'wrong-token' })));
    school.assertNoTokenLeaked();
  });
});

describe('webhooks apply when an answer is lost', () => {
  it('stops at the create whose outcome is unknown, says what was created, and the next plan shows it arrived', async () => {
    // Only drop-after-commit is enabled, so the emulator draws one number per API request:
    // GET /webhooks and the first POST pass, the second POST is saved and its answer dropped.
    const draws = [0.9, 0.9, 0.1];
    const { startEmulator } = await import('../../src/emulator/index.js');
    const { SEED, SECRET, collector } = await import('../cli/school-helpers.js');
    const lossy = await startEmulator({ port: 0, seed: SEED, dropAfterCommitRate: 0.5, random: () => draws.shift() ?? 0.9 });
    try {
      const dir = await repo(YAML);
      const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: lossy.url };
      const io = { stdout: collector(), stderr: collector(), env };
      const e = await school.fails(runWebhooksApply(dir, { yes: true }, io));
      expect(e.code).toBe('webhooks/apply-failed');
      expect(e.message).toMatch(/^creating the webhook of webhooks\.yaml:5 failed: POST \/webhooks: .*; it was not re-sent, to avoid a duplicate; created before it: whk_1 \(new_payment → https:\/\/hooks\.example\.com\/payments\)$/);
      expect(e.hint).toMatch(/run `coursesync webhooks plan` to see what exists now/);
      expect(lossy.stats().byRoute['POST /webhooks']).toBe(2);
      const plan = { stdout: collector(), stderr: collector(), env };
      await runWebhooksPlan(dir, { json: true }, plan);
      expect(JSON.parse(plan.stdout.text).changes.map((c: any) => c.action)).toEqual(['unchanged', 'unchanged', 'create']);
    } finally {
      await lossy.close();
    }
  });
});
