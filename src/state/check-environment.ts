/**
 * A state belongs to one school and one environment (docs/environments.md#state): its stamp says
 * which, with the school's address and program ids. Anything that belongs to another school or
 * environment is refused here, before any request (PURE).
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { withoutTrailingSlash } from '../school/base-url.js';
import type { DesiredState } from '../model/desired.js';
import type { StateData } from '../model/state/schema.js';

/**
 * Refuse a state read for `environment` (undefined: a repo without environments) that another
 * environment wrote: a different stamp, a stamp in a repo without environments, no stamp on an
 * applied state of an environment, or a program id the repo gives to another environment.
 */
export function checkStateEnvironment(state: Readonly<StateData>, file: string, environment: string | undefined, desired?: DesiredState): void {
  const stamped = state.environment ?? null;
  const applied = state.base_url !== null || Object.keys(state.lessons).length > 0;
  if (stamped !== (environment ?? null) && (stamped !== null || applied)) {
    throw failure('environment/state-mismatch', { file, stamped, environment: environment ?? null });
  }
  if (environment === undefined || desired === undefined) return;
  const recorded = new Set([...(state.program_ids ?? []), ...Object.values(state.lessons).map((l) => l.program_id)]);
  for (const program of desired.programs) {
    if (!program.ids) continue;
    for (const [other, id] of Object.entries(program.ids)) {
      if (other !== environment && id !== program.ids[environment] && recorded.has(id)) throw failure('environment/program-mismatch', { file, environment, program: id, other, folder: program.path });
    }
  }
}

/**
 * Refuse a state that belongs to another school. A state with no base_url yet (never applied)
 * matches any school.
 */
export function checkBaseUrl(state: Readonly<StateData>, baseUrl: string, file: string): void {
  if (state.base_url === null) return;
  if (withoutTrailingSlash(state.base_url) === withoutTrailingSlash(baseUrl)) return;
  throw failure('state/base-url-mismatch', { file, stateUrl: state.base_url, baseUrl });
}
