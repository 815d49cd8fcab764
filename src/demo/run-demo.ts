/**
 * `npm run demo`: the whole loop in one command, with nothing to set up. Starts the emulator
 * in-process on a free port (default seed: the school examples/ syncs to), copies examples/ to
 * a temporary folder (so the repo stays clean), and runs the real CLI there:
 * validate → plan → apply --yes → plan --detailed-exitcode (must say: no changes, exit 0).
 * Each step gets a header and what happened; the demo exits non-zero if any step misbehaves.
 * The token (`demo-token`, the emulator's demo key) goes to the CLI only through its
 * environment, as in real use; COURSESYNC_BASE_URL overrides examples/coursesync.yaml.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../emulator/index.js';

const CLI = fileURLToPath(new URL('../bin/coursesync.js', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));
const TOKEN = 'demo-token';

interface Step {
  title: string;
  args: string[];
  expect: number;
  /** Which output lines to show (all when absent). */
  show?: (line: string) => boolean;
  /** What the step proved, once it exited as expected. */
  meaning: string;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const indent = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

async function main(): Promise<number> {
  const emulator = await startEmulator({ port: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-demo-'));
  try {
    // The example repo without any state an earlier local run may have left in it.
    await cp(EXAMPLES, dir, { recursive: true, filter: (src) => basename(src) !== '.coursesync' });
    console.log(`coursesync demo\n  school: the emulator at ${emulator.url} (default seed)\n  repo:   a copy of examples/ in ${dir}\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emulator.url };
    for (const name of ['NO_COLOR', 'FORCE_COLOR', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'COURSESYNC_TOKEN_FILE']) delete env[name];
    env.NO_COLOR = '1';

    const headline = (l: string) => /^ {2}[+~>\-?!] /.test(l) || /^(Plan|No changes)/.test(l);
    const steps: Step[] = [
      { title: 'validate: parse and check every file', args: ['validate', dir], expect: 0, meaning: 'the repo is valid' },
      { title: 'plan: what apply would do (no request, no token needed)', args: ['plan', dir], expect: 0, show: headline, meaning: 'every lesson is new to this school' },
      {
        title: 'apply --yes: run the plan (one line per call off a terminal)',
        args: ['apply', dir, '--yes'],
        expect: 0,
        show: (l) => /^([+~>\-✗?] \w+ |Applying|Apply )/.test(l),
        meaning: 'every lesson was created at its planned position; the state file records each one',
      },
      {
        title: 'plan --detailed-exitcode: nothing left to do',
        args: ['plan', dir, '--detailed-exitcode'],
        expect: 0,
        meaning: 'the school matches the repo (exit 0 = no changes)',
      },
    ];
    let n = 0;
    for (const step of steps) {
      n++;
      console.log(`== ${n}/${steps.length} ${step.title}\n   $ coursesync ${step.args.map((a) => (a === dir ? '<repo>' : a)).join(' ')}`);
      const r = await run(step.args, env);
      const lines = r.stdout.split('\n').filter((l) => l !== '' && (step.show ? step.show(l) : true));
      if (lines.length > 0) console.log(indent(lines.join('\n')));
      if (r.stderr.trim() !== '') console.log(indent(r.stderr));
      if (r.code !== step.expect) {
        console.error(`\ndemo FAILED at step ${n}: \`coursesync ${step.args[0]}\` exited ${r.code}, expected ${step.expect}`);
        return 1;
      }
      console.log(`   ✓ exit ${r.code}: ${step.meaning}\n`);
    }

    // What the school holds now, read from the emulator's inspection endpoint.
    const res = await fetch(emulator.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${TOKEN}` } });
    const school = (await res.json()) as { programs: Array<{ name: string; sections: Array<{ id: string; lessons: Array<{ position: number; name: string }> }> }> };
    console.log('== the school now');
    for (const p of school.programs) {
      for (const s of p.sections) {
        if (s.lessons.length === 0) continue;
        console.log(`    ${p.name} / ${s.id}: ${s.lessons.map((l) => `${l.position}. ${l.name}`).join(' · ')}`);
      }
    }
    console.log(`\ndemo OK: ${emulator.stats().requests} API requests; the temporary repo and the emulator are gone.`);
    return 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
    await emulator.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`demo FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  },
);
