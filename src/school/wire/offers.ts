/** Wire schemas of offers (API §2.8 Offer, §4.10 GET /offers/{id}, §4.11 DELETE /offers/{id}). */
import { z } from 'zod';

/** Price of an offer (§2.8). */
export const OfferPriceSchema = z.object({ id: z.string(), amount: z.int(), currency: z.string() });

/** Offer (§2.8). */
export const OfferSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  is_published: z.boolean(),
  prices: z.array(OfferPriceSchema),
  created_at: z.string(),
});
export type Offer = z.output<typeof OfferSchema>;

/** DELETE /offers/{id} response (§4.11): the offer is in Trash. */
export const OfferDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type OfferDeleted = z.output<typeof OfferDeletedSchema>;
