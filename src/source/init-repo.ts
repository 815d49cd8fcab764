/**
 * `coursesync init`: set up a course repo. Every file is written only when it is missing, so a
 * re-run adds what a newer coursesync ships or what someone deleted, and never overwrites an
 * edit; .gitignore and the two VS Code files are extended (their missing lines or entries are
 * added). With the school at hand, program and section folders are added too (init-programs.ts).
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseYamlLeniently } from './read-yaml-leniently.js';
import { CourseConfigSchema } from '../model/config.js';
import { chosenEnvironment, environmentNames } from '../model/environments.js';
import { applyWorkflow, planWorkflow, type WorkflowEnvironment } from './environment-workflows.js';
import { configTemplate, GITIGNORE_HEADING, GITIGNORE_LINES, REMARK_CONFIG, VSCODE_EXTENSIONS, VSCODE_SETTINGS, WORKFLOWS, WORKFLOW_DIR } from './init-templates.js';

/** What happened to one file: written, extended (lines appended), or kept as it was. */
export interface InitStep {
  path: string;
  outcome: 'written' | 'extended' | 'unchanged' | 'kept';
  /** For `kept`: why it was left alone; for `extended`: what was added. */
  detail?: string;
}

/** The workflow templates inside the installed package (shipped with it: package.json `files`). */
const TEMPLATE_DIR = new URL('../../examples/ci/github/', import.meta.url);

/**
 * Set up `dir` (created when missing); returns one step per file, in a stable order. `baseUrl`
 * (already checked) goes into a coursesync.yaml written now; an existing one is never edited.
 */
export async function initRepo(dir: string, options: { baseUrl?: string | undefined } = {}): Promise<InitStep[]> {
  await mkdir(dir, { recursive: true });
  const steps: InitStep[] = [];
  steps.push(await writeMissing(dir, 'coursesync.yaml', configTemplate(options.baseUrl)));
  steps.push(await extendGitignore(dir));
  const environments = await environmentsOf(dir);
  for (const name of WORKFLOWS) {
    const template = await readFile(new URL(name, TEMPLATE_DIR), 'utf8');
    // A repo with environments gets one plan per environment, and one apply job per environment.
    const text = environments.length === 0 ? template : name === 'coursesync-plan.yml' ? planWorkflow(template, environments) : applyWorkflow(template, environments);
    steps.push(await writeMissing(dir, `${WORKFLOW_DIR}/${name}`, text));
  }
  steps.push(await mergeJson(dir, '.vscode/settings.json', VSCODE_SETTINGS));
  steps.push(await mergeJson(dir, '.vscode/extensions.json', VSCODE_EXTENSIONS));
  steps.push(await writeMissing(dir, '.remarkrc.mjs', REMARK_CONFIG));
  return steps;
}

/** The environments of the repo's coursesync.yaml (none when it has none, or cannot be read: validate reports that). */
async function environmentsOf(dir: string): Promise<WorkflowEnvironment[]> {
  const text = await readIfExists(join(dir, 'coursesync.yaml'));
  if (text === undefined) return [];
  let parsed;
  try {
    parsed = CourseConfigSchema.safeParse(parseYamlLeniently(text) ?? {});
  } catch {
    return [];
  }
  if (!parsed.success) return [];
  return environmentNames(parsed.data).map((name) => chosenEnvironment(parsed.data, name));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Add to the JSON file at `path` what `wanted` has and it lacks: a missing key of an object, a
 * missing item of a list. A value already there is never changed, so an edited schema path or
 * glob stays. A file that is not plain JSON (VS Code allows comments) is left alone.
 */
async function mergeJson(dir: string, path: string, wanted: Readonly<Record<string, unknown>>): Promise<InitStep> {
  const file = join(dir, path);
  const current = await readIfExists(file);
  if (current === undefined) return writeMissing(dir, path, JSON.stringify(wanted, null, 2) + '\n');
  let data: unknown;
  try {
    data = JSON.parse(current);
  } catch {
    return { path, outcome: 'kept', detail: `it is not plain JSON (comments?): add ${Object.keys(wanted).join(', ')} from docs/editors.md by hand` };
  }
  if (!isObject(data)) return { path, outcome: 'kept', detail: 'it is not a JSON object' };
  const added: string[] = [];
  for (const [key, value] of Object.entries(wanted)) {
    const have: Json | undefined = data[key];
    if (have === undefined) {
      data[key] = value as Json;
      added.push(key);
    } else if (isObject(have) && isObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (k in have) continue;
        have[k] = v;
        added.push(`${key}: ${k}`);
      }
    } else if (Array.isArray(have) && Array.isArray(value)) {
      for (const v of value as Json[]) {
        if (have.includes(v)) continue;
        have.push(v);
        added.push(`${key}: ${String(v)}`);
      }
    }
  }
  if (added.length === 0) return { path, outcome: 'unchanged' };
  await writeFile(file, JSON.stringify(data, null, 2) + '\n');
  return { path, outcome: 'extended', detail: added.join(', ') };
}

/** Write `text` at `path` unless a file is there; an existing file is reported, never replaced. */
async function writeMissing(dir: string, path: string, text: string): Promise<InitStep> {
  const file = join(dir, path);
  const current = await readIfExists(file);
  if (current === undefined) {
    await mkdir(dirname(file), { recursive: true });
    // 'wx': a file that appeared since the check is still never overwritten.
    await writeFile(file, text, { flag: 'wx' });
    return { path, outcome: 'written' };
  }
  if (current === text) return { path, outcome: 'unchanged' };
  return { path, outcome: 'kept', detail: 'it differs from what init writes (edited, or from another version); delete it to get the new one' };
}

/** Append the ignore lines .gitignore lacks (compared line by line, ignoring surrounding blanks). */
async function extendGitignore(dir: string): Promise<InitStep> {
  const path = '.gitignore';
  const file = join(dir, path);
  const current = (await readIfExists(file)) ?? '';
  const have = new Set(current.split(/\r?\n/).map((l) => l.trim()));
  const missing = GITIGNORE_LINES.filter((l) => !have.has(l));
  if (missing.length === 0) return { path, outcome: 'unchanged' };
  const lead = current === '' ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  const heading = have.has(GITIGNORE_HEADING) ? '' : `${GITIGNORE_HEADING}\n`;
  await writeFile(file, `${current}${lead}${heading}${missing.join('\n')}\n`);
  return current === '' ? { path, outcome: 'written' } : { path, outcome: 'extended', detail: missing.join(', ') };
}

async function readIfExists(file: string): Promise<string | undefined> {
  const s = await stat(file).catch(() => undefined);
  if (s === undefined) return undefined;
  return readFile(file, 'utf8');
}
