// The price list (DESIGN §4 Billing): the token packs a seller can buy, in US dollars, and the rate
// the local provider charges roubles at. Defaults below; an operator replaces them with one JSON
// file named by PRICES_FILE, checked at start-up so a bad price never reaches a seller.
import fs from 'node:fs';
import { z } from 'zod';
import type { Tiers } from '../../contract/billing';

const packSchema = z.object({
  tokens: z.number().int().min(1).max(1_000_000),
  usd: z.number().min(0.5).max(100_000).multipleOf(0.01),
});

export const priceListSchema = z
  .object({
    packs: z.array(packSchema).min(1).max(12),
    /** Roubles per US dollar for the local provider's methods. */
    rub_per_usd: z.number().positive().max(100_000),
  })
  .strict()
  .superRefine((list, ctx) => {
    const seen = new Set<number>();
    for (const [index, pack] of list.packs.entries()) {
      if (seen.has(pack.tokens)) ctx.addIssue({ code: 'custom', path: ['packs', index, 'tokens'], message: `${pack.tokens} tokens is listed twice` });
      seen.add(pack.tokens);
    }
  });

export type PriceList = z.infer<typeof priceListSchema>;
export type Pack = PriceList['packs'][number];

/** Market-like defaults: about five cents a token, cheaper the more a seller buys at once. */
export const DEFAULT_PRICES: PriceList = {
  packs: [
    { tokens: 100, usd: 4.99 },
    { tokens: 300, usd: 12.99 },
    { tokens: 1000, usd: 39.99 },
    { tokens: 3000, usd: 99.99 },
  ],
  rub_per_usd: 95,
};

export class PriceListError extends Error {
  constructor(file: string, problems: string[]) {
    super(`The price list ${file} is not valid:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'PriceListError';
  }
}

/** Reads and checks the operator's price list; the defaults when no file is named. */
export function loadPriceList(file: string | undefined): PriceList {
  if (!file) return DEFAULT_PRICES;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PriceListError(file, [error instanceof Error ? error.message : String(error)]);
  }
  const parsed = priceListSchema.safeParse(raw);
  if (!parsed.success) {
    throw new PriceListError(
      file,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`),
    );
  }
  return { ...parsed.data, packs: [...parsed.data.packs].sort((a, b) => a.tokens - b.tokens) };
}

/** SPEC's token tiers: credits → USD. */
export function tiersOf(list: PriceList): Tiers {
  return Object.fromEntries(list.packs.map((pack) => [String(pack.tokens), pack.usd]));
}
