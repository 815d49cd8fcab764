/**
 * `coursesync offers get|delete` (docs/school-api.md#offers). Delete moves the offer to Trash: its
 * member accesses are removed, the members are kept, and it can be restored from Trash in the
 * school. It asks for confirmation (or --yes) and says all of that.
 */
import type { Command } from 'commander';
import type { Offer } from '../school-api/wire/offers.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { addSchoolOptions, explained, openSchool, processIo, type CommandIo, type SchoolFlags } from './school-command.js';
import { confirm, printDocument, printRecord } from './terminal.js';

export interface OffersGetOptions extends SchoolFlags {
  json?: boolean;
}
export interface OffersDeleteOptions extends SchoolFlags {
  yes?: boolean;
  json?: boolean;
}

const pricesOf = (o: Offer) => o.prices.map((p) => `${p.amount} ${p.currency} (${p.id})`).join(', ') || 'none';

/** `offers get <id>`. */
export async function runOffersGet(id: string, options: OffersGetOptions, io: CommandIo = processIo()): Promise<number> {
  const client = await openSchool(options, io);
  const offer = await explained(client.offers.get(id), `offer ${id} (or it is in Trash)`);
  if (options.json) printDocument({ offer }, io.stdout);
  else printRecord({ ...offer, prices: pricesOf(offer) }, io.stdout);
  return ExitCode.Ok;
}

/** What happens on delete, in the API's words (docs/school-api.md#states). */
export function deleteConsequences(offer: Offer, accesses: number): string {
  const n = `${accesses} member access${accesses === 1 ? '' : 'es'}`;
  return `Offer "${offer.name}" (${offer.id}) goes to Trash: its ${n} ${accesses === 1 ? 'is' : 'are'} removed, the members are kept, and the offer can be restored from Trash in the school.`;
}

/** `offers delete <id>`: shows the consequences, confirms, deletes. */
export async function runOffersDelete(id: string, options: OffersDeleteOptions, io: CommandIo = processIo()): Promise<number> {
  const client = await openSchool(options, io);
  const subject = `offer ${id} (or it is already in Trash)`;
  const offer = await explained(client.offers.get(id), subject);
  const accesses = (await explained(client.members.accesses())).filter((a) => a.offer_id === offer.id).length;
  const consequences = deleteConsequences(offer, accesses);
  if (!options.json) io.stderr.write(consequences + '\n');
  if (!(await confirm(`Delete offer "${offer.name}" (${offer.id})?`, { yes: options.yes }))) {
    io.stderr.write('Nothing was deleted.\n');
    return ExitCode.Cancelled;
  }
  const result = await explained(client.offers.delete(offer.id), subject);
  if (options.json) {
    printDocument({ ...result, offer, removed_accesses: accesses, restorable_from_trash: true }, io.stdout);
  } else {
    io.stdout.write(`Deleted offer "${offer.name}" (${offer.id}): it is in Trash, ${accesses} member access${accesses === 1 ? '' : 'es'} removed, members kept. Restore it from Trash in the school if needed.\n`);
  }
  return ExitCode.Ok;
}

/** Add `offers get|delete`. */
export function register(program: Command): void {
  const offers = program.command('offers').description('Offers: read one, or delete it (to Trash)');
  addSchoolOptions(offers.command('get').description('Show an offer').argument('<id>', 'offer id').option('--json', 'print JSON')).action(
    async (id: string, options: OffersGetOptions) => {
      process.exitCode = await runOffersGet(id, options);
    },
  );
  addSchoolOptions(
    offers
      .command('delete')
      .description('Move an offer to Trash: its member accesses are removed, members are kept; restorable from Trash')
      .argument('<id>', 'offer id')
      .option('-y, --yes', 'do not ask for confirmation (required when not run in a terminal)')
      .option('--json', 'print the result as JSON'),
  ).action(async (id: string, options: OffersDeleteOptions) => {
    process.exitCode = await runOffersDelete(id, options);
  });
}
