/**
 * The GitHub workflows of a repo with environments (docs/environments.md#workflows), made from
 * the shipped single-school ones (PURE), so the race protections, pins and hardening live in one
 * place: the plan workflow plans every environment into one comment, a section each; the apply
 * workflow publishes the assets once, then runs one job per environment in promotion order, each
 * behind its GitHub environment (required reviewers), with its own secret and its own state commit.
 */
import { parseDocument, YAMLMap, YAMLSeq, isMap, isScalar, isSeq, type Document } from 'yaml';

/** What the workflows need of one environment. */
export interface WorkflowEnvironment {
  name: string;
  /** The variable (and the GitHub secret of that name) holding its token. */
  token_env: string;
  promote_from?: string | undefined;
}

const ASSET_STEPS = ['Build the asset folder', 'Upload the asset folder', 'Publish the asset folder'];
const SETUP_STEPS = ['Install the pinned coursesync'];

/** Environments in apply order: each after the one it is promoted from, else in file order. */
export function applyOrder(envs: readonly WorkflowEnvironment[]): WorkflowEnvironment[] {
  const out: WorkflowEnvironment[] = [];
  const visit = (e: WorkflowEnvironment, seen: Set<string>) => {
    if (out.includes(e) || seen.has(e.name)) return;
    seen.add(e.name);
    const from = envs.find((s) => s.name === e.promote_from);
    if (from) visit(from, seen);
    out.push(e);
  };
  for (const e of envs) visit(e, new Set());
  return out;
}

const stepName = (step: unknown) => (isMap(step) ? String(step.get('name') ?? '') : '');
const stepUses = (step: unknown) => (isMap(step) ? String(step.get('uses') ?? '') : '');

/** A step's strings (`run:` and `env:` values) rewritten for one environment. */
function rewriteStep(step: YAMLMap, env: WorkflowEnvironment): void {
  const rewrite = (text: string) =>
    text
      .replaceAll('.coursesync/state.json', `.coursesync/env/${env.name}/state.json`)
      .replaceAll('.coursesync/state.journal', `.coursesync/env/${env.name}/state.journal`)
      .replaceAll('coursesync apply --yes', `coursesync apply --yes --env ${env.name}`)
      .replaceAll('coursesync state compact', `coursesync state compact --env ${env.name}`)
      .replaceAll('coursesync: state after apply of', `coursesync: ${env.name} state after apply of`);
  const run = step.get('run', true);
  if (isScalar(run) && typeof run.value === 'string') run.value = rewrite(run.value);
  const vars = step.get('env', true);
  if (!isMap(vars)) return;
  for (const pair of vars.items) {
    if (isScalar(pair.key) && pair.key.value === 'COURSESYNC_TOKEN') {
      pair.key.value = env.token_env;
      if (isScalar(pair.value)) pair.value.value = `\${{ secrets.${env.token_env} }}`;
    }
  }
}

/** Set `key` of `map` to `value`, with `comment` above it (replacing the one the template had). */
function setWithComment(map: YAMLMap, key: string, value: unknown, comment: string): void {
  map.set(key, value);
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  if (pair && isScalar(pair.key)) pair.key.commentBefore = comment;
}

/** The template's header comment replaced by `header`. */
function setHeader(doc: Document, header: string): void {
  doc.commentBefore = header;
  if (isMap(doc.contents)) {
    doc.contents.commentBefore = null;
    const first = doc.contents.items[0];
    if (first && isScalar(first.key)) first.key.commentBefore = null;
  }
}

/** The steps of `job` for which `keep` holds, cloned. */
function stepsOf(job: YAMLMap, keep: (step: unknown) => boolean): YAMLSeq {
  const steps = job.get('steps', true);
  const out = new YAMLSeq();
  if (isSeq(steps)) for (const s of steps.items) if (keep(s)) out.items.push((s as YAMLMap).clone());
  return out;
}

/** The apply workflow for `envs`, from the shipped single-school apply workflow `template`. */
export function applyWorkflow(template: string, envs: readonly WorkflowEnvironment[]): string {
  const doc = parseDocument(template);
  const base = doc.getIn(['jobs', 'apply'], true) as YAMLMap;
  const jobs = new YAMLMap();

  // The asset folder once, for every environment (content-hashed names: one folder serves all).
  const assets = base.clone() as YAMLMap;
  const setup = (s: unknown) => stepUses(s).startsWith('actions/checkout@') || stepUses(s).startsWith('actions/setup-node@') || SETUP_STEPS.includes(stepName(s));
  assets.set('steps', stepsOf(base, (s) => setup(s) || ASSET_STEPS.includes(stepName(s))));
  setWithComment(assets, 'timeout-minutes', 20, ' Far above the time to build and publish the files.');
  jobs.set('assets', assets);

  let previous = 'assets';
  for (const env of applyOrder(envs)) {
    const job = base.clone() as YAMLMap;
    job.set('needs', env.promote_from ?? previous);
    setWithComment(job, 'environment', env.name, ` Its GitHub environment: its own secret ${env.token_env}, and required reviewers when learners see it.`);
    const steps = stepsOf(base, (s) => !ASSET_STEPS.includes(stepName(s)));
    for (const s of steps.items) rewriteStep(s as YAMLMap, env);
    job.set('steps', steps);
    jobs.set(env.name, job);
    previous = env.name;
  }
  doc.setIn(['jobs'], jobs);
  doc.setIn(['on', 'push', 'paths-ignore'], doc.createNode(['.coursesync/env/*/state.json', '.coursesync/env/*/state.journal'], { flow: true }));
  setHeader(
    doc,
    ` Main branch, a repo with environments (docs/environments.md): publish the assets, then apply\n` +
    ` ${applyOrder(envs).map((e) => e.name).join(', then ')}, one job each, each behind its GitHub environment of the same\n` +
    ` name (Settings → Environments: add required reviewers to the ones learners see) holding its\n` +
    ` own secret (${applyOrder(envs).map((e) => e.token_env).join(', ')}), each committing its own state\n` +
    ` (.coursesync/env/<name>/state.json) with the race protections of the single-school workflow.\n` +
    ` A job checks out the branch tip when it starts, so it sees the state the job before it pushed.\n` +
    ` Written by \`coursesync init\`; every action is pinned by its commit and the checkout keeps no\n` +
    ` credentials: the job's token authenticates only the state's fetch and push.`,
  );
  return doc.toString({ lineWidth: 0 });
}

/** The plan workflow for `envs`: one plan per environment in one comment, a section each. */
export function planWorkflow(template: string, envs: readonly WorkflowEnvironment[]): string {
  const doc = parseDocument(template);
  const steps = doc.getIn(['jobs', 'plan', 'steps'], true) as YAMLSeq;
  const plan = steps.items.find((s) => stepName(s) === 'Plan') as YAMLMap;
  const lines = [
    'set +e',
    'worst=0',
    ': > plan.md',
    '# One section per environment. An environment promoted from another is planned with',
    '# --skip-promotion-check: this pull request is not applied anywhere yet, and its plan says so.',
  ];
  for (const env of applyOrder(envs)) {
    const skip = env.promote_from === undefined ? '' : ' --skip-promotion-check';
    lines.push(
      `npx --no coursesync plan --env ${env.name}${skip} --format markdown --detailed-exitcode >> plan.md`,
      'code=$?',
      'echo >> plan.md',
      '# 0 = no changes, 2 = changes: both are a successful plan; anything else (an error, a usage error) fails the job.',
      'if [ "$code" -ne 0 ] && [ "$code" -ne 2 ]; then worst=1; fi',
    );
  }
  lines.push('echo "exitcode=$worst" >> "$GITHUB_OUTPUT"', 'exit "$worst"');
  plan.set('run', lines.join('\n') + '\n');
  setHeader(
    doc,
    ` Pull requests, a repo with environments (docs/environments.md): one plan per environment\n` +
    ` (${applyOrder(envs).map((e) => e.name).join(', ')}) in one sticky comment, a section each. Needs no secret.\n` +
    ` Written by \`coursesync init\`; every action is pinned by its commit, and the checkout keeps no credentials.`,
  );
  return doc.toString({ lineWidth: 0 });
}
