/**
 * `preview --refresh` (I/O): the sections' own drip, publication and order from GET /sections,
 * read once per program and kept for the life of the preview (a save never waits on the
 * network). Reads only; the token is used for nothing else.
 */
import type { SectionFacts } from '../learner/learner-model.js';
import type { DesiredState } from '../model/desired.js';
import { createSchoolClient } from '../school/client.js';
import { resolveBaseUrl, resolveToken, type ConnectionFlags } from '../school/connection.js';
import { listProgramSections } from '../school/program-sections.js';

export interface SchoolSections {
  /** By section id. */
  facts: Map<string, SectionFacts>;
  /** Section folder → id, for sections given by `name:` (exact name, once in the program). */
  ids: Map<string, string>;
}

export type SectionReader = (desired: DesiredState) => Promise<SchoolSections>;

/**
 * A reader of the school's sections. The token is resolved now, so a missing one fails at
 * start; the address when the first course is compiled (coursesync.yaml may hold it).
 */
export function createSectionReader(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env, environment?: string): SectionReader {
  // An environment's token variable is in coursesync.yaml: then resolved with the first course.
  const token = environment === undefined ? resolveToken({ flags, env }) : undefined;
  // An address given on the command line is checked now (https, or plain http to loopback only).
  if (flags.baseUrl !== undefined) resolveBaseUrl({ flags, env });
  let client: ReturnType<typeof createSchoolClient> | undefined;
  const byProgram = new Map<string, Array<{ id: string; name: string; facts: SectionFacts }>>();
  return async (desired) => {
    const connection = { flags, config: desired.config, env, environment };
    client ??= createSchoolClient({ baseUrl: resolveBaseUrl(connection), token: token ?? resolveToken(connection), timeoutMs: desired.config.school?.timeout_ms });
    const out: SchoolSections = { facts: new Map(), ids: new Map() };
    for (const program of desired.programs) {
      let list = byProgram.get(program.id);
      if (!list) {
        list = (await listProgramSections(client, program.id)).map((s) => ({ id: s.id, name: s.name, facts: { drip_delay: s.drip_delay, is_published: s.is_published, position: s.position } }));
        byProgram.set(program.id, list);
      }
      for (const s of list) out.facts.set(s.id, s.facts);
      for (const section of program.sections) {
        if ('id' in section.ref) continue;
        const name = section.ref.name;
        const hits = list.filter((s) => s.name === name);
        if (hits.length === 1) out.ids.set(section.path, hits[0]!.id);
      }
    }
    return out;
  };
}
