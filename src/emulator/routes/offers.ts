/**
 * Offers (docs/school-api.md#offers): read, and delete to Trash. A trashed offer answers 404 to GET and
 * DELETE; its member accesses are removed and the members kept (docs/school-api.md#states). It stays in the store
 * (visible in GET /__emulator/state with `in_trash: true`), since Trash can be restored.
 */
import type { Offer } from '../../school-api/wire/offers.js';
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';
import { notFound } from '../errors.js';
import type { OfferRecord } from '../store.js';

function liveOffer(ctx: RouteContext): OfferRecord {
  const offer = ctx.store.offers.get(ctx.params[0]!);
  if (!offer || offer.in_trash) throw notFound();
  return offer;
}

function offerResponse(o: OfferRecord): Offer {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    is_published: o.is_published,
    prices: o.prices.map((p) => ({ id: p.id, amount: p.amount, currency: p.currency })),
    created_at: o.created_at,
  };
}

function getOffer(ctx: RouteContext): RouteResult {
  return ok(offerResponse(liveOffer(ctx)));
}

function deleteOffer(ctx: RouteContext): RouteResult {
  const offer = liveOffer(ctx);
  offer.in_trash = true;
  for (const [id, access] of ctx.store.accesses) if (access.offer_id === offer.id) ctx.store.accesses.delete(id);
  return ok({ id: offer.id, deleted: true });
}

export const offerRoutes: Route[] = [route('GET', '/offers/:id', getOffer), route('DELETE', '/offers/:id', deleteOffer)];
