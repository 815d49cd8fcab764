/**
 * Named environments (docs/environments.md): `environments:` in coursesync.yaml names schools
 * (staging, production, a school per partner), each with what differs between them. One is
 * chosen per command (`--env`), and resolved here into one effective configuration that the
 * rest of the code reads as if the repo talked to that school alone (PURE).
 */
import { z } from 'zod';
import { schoolId } from '../school-api/school-rules.js';

/** An environment name: short, lower case, usable in a file name and a CI job name. */
export const ENVIRONMENT_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;
export const environmentName = () =>
  z.string().regex(ENVIRONMENT_NAME_PATTERN, 'not an environment name (a lower-case letter, then up to 39 lower-case letters, digits, "_" or "-")');

/**
 * Schools one repo may name. Each is compiled for on its own (validate checks every one), and a
 * course has a few: a limit keeps a hostile coursesync.yaml (thousands of them) from making a
 * command run for minutes or out of memory.
 */
export const MAX_ENVIRONMENTS = 32;

/** The name of an environment variable holding a token. */
const TOKEN_ENV_PATTERN = /^[A-Z_][A-Z0-9_]*$/;

/** An id that may differ per environment: one id, or one per environment name. */
export const idPerEnvironment = (what: string) =>
  z.union([schoolId(), z.record(environmentName(), schoolId()).refine((m) => Object.keys(m).length > 0, 'give at least one environment')]).describe(
    `The ${what} id in the school, or one id per environment (e.g. {staging: a, production: b}).`,
  );
export type IdPerEnvironment = string | Record<string, string>;

/**
 * One environment's settings. `school` and `assets` are laid over the top-level ones field by
 * field, `vars` over the top-level `vars`. The three schemas come from the config (vars is
 * the config's VarsSchema), which imports this module.
 */
export function environmentSchema<S extends z.ZodType, A extends z.ZodType, V extends z.ZodType>(school: S, assets: A, vars: V) {
  return z
    .strictObject({
      school: school.optional(),
      assets: assets.optional(),
      token_env: z
        .string()
        .regex(TOKEN_ENV_PATTERN, 'not an environment variable name (upper-case letters, digits and "_")')
        .describe('The environment variable holding this school\'s API token (default COURSESYNC_TOKEN).')
        .optional(),
      vars: vars.describe('Overrides of the top-level vars for this environment.').optional(),
      promote_from: environmentName()
        .describe('Apply only content that this other environment applied last (docs/environments.md#promotion).')
        .optional(),
    })
    .describe('One named environment: a school and what differs for it.');
}

/** What an environment gives, as the config schema checked it. */
export interface EnvironmentSettings {
  school?: Record<string, unknown> | undefined;
  assets?: Record<string, unknown> | undefined;
  token_env?: string | undefined;
  vars?: Record<string, string | number | boolean> | undefined;
  promote_from?: string | undefined;
}

/** The fields of a config an environment acts on. */
export interface EnvironmentAware {
  school?: object | undefined;
  assets?: object | undefined;
  vars?: Record<string, string | number | boolean> | undefined;
  environments?: Record<string, EnvironmentSettings> | undefined;
}

/** The environment a command runs against: its name and what it is promoted from. */
export interface ChosenEnvironment {
  name: string;
  /** The variable holding its token (default COURSESYNC_TOKEN). */
  token_env: string;
  promote_from?: string;
}

/** The declared environment names, in file order (empty for a repo without environments). */
export function environmentNames(config: EnvironmentAware): string[] {
  return Object.keys(config.environments ?? {});
}

/**
 * The configuration as the environment `name` sees it: its school and assets settings over the
 * top-level ones, its vars over the top-level vars. `name` must be declared (the CLI checks).
 */
export function effectiveConfig<C extends EnvironmentAware>(config: C, name: string | undefined): C {
  if (name === undefined) return config;
  const settings = config.environments?.[name];
  if (settings === undefined) return config;
  const out: C = { ...config };
  if (settings.school) out.school = { ...config.school, ...settings.school };
  if (settings.assets) out.assets = { ...config.assets, ...settings.assets };
  if (settings.vars) out.vars = { ...config.vars, ...settings.vars };
  return out;
}

/** The environment `name` of `config` with its defaults filled in. */
export function chosenEnvironment(config: EnvironmentAware, name: string): ChosenEnvironment {
  const settings = config.environments?.[name] ?? {};
  const chosen: ChosenEnvironment = { name, token_env: settings.token_env ?? 'COURSESYNC_TOKEN' };
  if (settings.promote_from !== undefined) chosen.promote_from = settings.promote_from;
  return chosen;
}

/**
 * Problems of `environments:` a schema cannot see, as [path, message]: a `promote_from` that
 * names no environment, itself, or closes a cycle; two environments reading one token variable.
 */
export function environmentProblems(config: EnvironmentAware): Array<[Array<string>, string]> {
  const envs = config.environments ?? {};
  const names = Object.keys(envs);
  const problems: Array<[Array<string>, string]> = [];
  const tokenOwner = new Map<string, string>();
  for (const [name, settings] of Object.entries(envs)) {
    const from = settings.promote_from;
    if (from !== undefined) {
      if (from === name) problems.push([['environments', name, 'promote_from'], `environment ${name} cannot be promoted from itself`]);
      else if (!(from in envs)) problems.push([['environments', name, 'promote_from'], `promote_from names "${from}", which is not an environment (declared: ${names.join(', ')})`]);
      else if (promotionCycle(envs, name)) problems.push([['environments', name, 'promote_from'], `promote_from makes a cycle (${promotionChain(envs, name).join(' ← ')})`]);
    }
    const token = settings.token_env ?? 'COURSESYNC_TOKEN';
    const other = tokenOwner.get(token);
    if (other !== undefined) problems.push([['environments', name, 'token_env'], `environments ${other} and ${name} both read their token from ${token}: give each school its own token_env`]);
    else tokenOwner.set(token, name);
  }
  return problems;
}

function promotionChain(envs: Record<string, EnvironmentSettings>, start: string): string[] {
  const chain = [start];
  let at = envs[start]?.promote_from;
  while (at !== undefined && !chain.includes(at)) {
    chain.push(at);
    at = envs[at]?.promote_from;
  }
  if (at !== undefined) chain.push(at);
  return chain;
}

function promotionCycle(envs: Record<string, EnvironmentSettings>, start: string): boolean {
  const chain = promotionChain(envs, start);
  return chain.length > 1 && chain[chain.length - 1] === start;
}

/**
 * The id of `id` in the environment `name`: the id itself, or its entry in the map (undefined
 * when the map has none). Without an environment a map gives the entry of the first declared
 * environment that it has (only `validate` compiles so).
 */
export function idIn(id: IdPerEnvironment, name: string | undefined, declared: readonly string[]): string | undefined {
  if (typeof id === 'string') return id;
  if (name !== undefined) return id[name];
  const first = declared.find((n) => n in id);
  return first === undefined ? undefined : id[first];
}
