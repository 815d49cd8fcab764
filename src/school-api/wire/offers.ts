/** Wire schemas of offers (docs/school-api.md#offers Offer, docs/school-api.md#offers GET /offers/{id}, docs/school-api.md#offers DELETE /offers/{id}). */
import { z } from 'zod';

/** Price of an offer (docs/school-api.md#offers). */
export const OfferPriceSchema = z.object({ id: z.string(), amount: z.int(), currency: z.string() });

/** Offer (docs/school-api.md#offers). */
export const OfferSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  is_published: z.boolean(),
  prices: z.array(OfferPriceSchema),
  created_at: z.string(),
});
export type Offer = z.output<typeof OfferSchema>;

/** DELETE /offers/{id} response (docs/school-api.md#offers): the offer is in Trash. */
export const OfferDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type OfferDeleted = z.output<typeof OfferDeletedSchema>;
