/**
 * Helpers for the import / duplicate / clone tests: small course repos written inline into temp
 * folders, and what the school holds per section (GET /__emulator/state).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildPlan } from '../../src/sync/build-plan.js';

const dirs: string[] = [];

/** A temp course repo holding `files` (path → text). */
export async function makeRepo(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-clone-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

export async function removeRepos(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** The plan of a repo (no request), against the emulator. */
export async function planOf(dir: string, env: NodeJS.ProcessEnv) {
  return (await buildPlan(dir, { env })).plan;
}

/** A lesson file. */
export function lessonMd(name: string, body = '', extra = ''): string {
  return `---\nname: ${JSON.stringify(name)}\nlesson_type: text\n${extra}---\n${body}`;
}
