// What a task costs, as both task pages show it before it is sent: each planned output at the
// price the server's catalogue gives its category (the defaults until it has answered). The
// server prices a submission itself from the same plan (contract/selection.ts `plannedOutputs`).
import type { CategoryOffer } from '../../contract/content';
import type { ShoeView } from '../../contract/enums';
import { DEFAULT_PRICES, plannedOutputs, priceOutputs, type ContentConfigEntry, type PricedOutput, type Prices } from '../../contract/selection';

/** Prices in force: the server's, or the defaults for what it has not priced. */
export function pricesOf(offers: readonly CategoryOffer[]): Prices {
  return { ...DEFAULT_PRICES, ...Object.fromEntries(offers.map((offer) => [offer.category, offer.price])) };
}

/** The outputs a task's config makes from these views, each with its cost, and the total. */
export function priceTask(
  config: readonly ContentConfigEntry[],
  views: readonly ShoeView[],
  offers: readonly CategoryOffer[],
): { outputs: PricedOutput[]; total: number } {
  return priceOutputs(plannedOutputs(config, views), pricesOf(offers));
}
