/** What an apply of an environment stamps on its state (docs/environments.md#state) (PURE). */
import type { DesiredState } from '../model/desired.js';
import type { StateData } from '../model/state/schema.js';

/**
 * Stamp the state (a draft of `StateStore.update`) with its environment and the program ids of
 * its school, so a state copied to another environment's file, or read with another
 * environment's ids, is refused before any request.
 */
export function stampEnvironment(draft: StateData, environment: string, desired: DesiredState): void {
  if (draft.environment !== environment) draft.environment = environment;
  const ids = [...new Set([...(draft.program_ids ?? []), ...desired.programs.map((p) => p.id)])].sort();
  if (JSON.stringify(ids) !== JSON.stringify(draft.program_ids)) draft.program_ids = ids;
}
