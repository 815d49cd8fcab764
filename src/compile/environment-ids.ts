/**
 * Ids given per environment (PURE): a program.yaml's or section.yaml's `id:` (or a book's
 * chapter id) as one id, or as a map by environment name (docs/environments.md).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { IdPerEnvironment } from '../model/environments.js';
import { diag } from './codes.js';
import type { ParsedYaml } from './parse-yaml.js';

/** The environment compiled for and the declared ones, for ids given per environment. */
export interface IdContext {
  environment: string | undefined;
  declared: readonly string[];
}

/**
 * The id of a program.yaml or section.yaml for the environment compiled for: the id itself, or
 * its entry in a map by environment. A map must name exactly the declared environments (a
 * missing one would leave that school without the folder; an unknown one is a typo).
 */
export function idOfEnvironment(id: IdPerEnvironment, env: IdContext, file: string, yaml: ParsedYaml, kind: 'program' | 'section', out: Diagnostic[], at: string[] = ['id']): string | undefined {
  if (typeof id === 'string') return id;
  // A program.yaml's sections: map (a book's chapter → section id) is a program.yaml too.
  const code = kind === 'program' || at[0] !== 'id' ? 'program/invalid-field' : 'section/invalid-field';
  // `id`, or `the id of "Chapter"` for an entry of a book's sections: map.
  const what = at.length === 1 ? at[0]! : `the id of "${at[at.length - 1]}"`;
  if (env.declared.length === 0) {
    out.push(diag(code, file, yaml.placeOf(at), `${what} is given per environment, but coursesync.yaml declares no environments`, 'give one id, or declare the environments under `environments:` in coursesync.yaml'));
    return undefined;
  }
  const before = out.length;
  for (const name of Object.keys(id)) {
    if (!env.declared.includes(name)) out.push(diag(code, file, yaml.placeOf([...at, name], 'key'), `"${name}" is not an environment (declared: ${env.declared.join(', ')})`, 'name each declared environment once'));
  }
  const missing = env.declared.filter((n) => !(n in id));
  if (missing.length > 0) out.push(diag(code, file, yaml.placeOf(at), `${what} has no entry for environment${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`, `add \`${missing[0]}: <${kind} id>\` under ${at[at.length - 1]}`));
  if (out.length > before) return undefined;
  return env.environment !== undefined ? id[env.environment] : id[env.declared[0]!];
}
