// The price list (DESIGN §4 Billing): the token packs a seller can buy, in US dollars, and the rate
// the local provider charges roubles at. Defaults below; an operator replaces them with one JSON
// file named by PRICES_FILE, checked at start-up so a bad price never reaches a seller.
import fs from 'node:fs';
import { z } from 'zod';
import { chargeMinor, type Plan, type PlanInterval, type Tiers } from '../../contract/billing';
import type { Locale } from '../../contract/locales';

const packSchema = z.object({
  tokens: z.number().int().min(1).max(1_000_000),
  usd: z.number().min(0.5).max(100_000).multipleOf(0.01),
});

/** A text the page shows: one string for every language, or one per language. */
const textSchema = z.union([z.string().min(1).max(500), z.object({ ru: z.string().min(1), en: z.string().min(1), zh: z.string().min(1) }).strict()]);
export type PlanText = z.infer<typeof textSchema>;
const usdSchema = z.number().min(0.5).max(100_000).multipleOf(0.01);

/**
 * A subscription plan: its price and tokens per month and per year (a year's tokens all credited
 * when it is paid, lapsing at its end). Plans are listed cheapest first; id 4 is the top plan.
 */
const planEntrySchema = z
  .object({
    id: z.number().int().min(1).max(1000),
    name: textSchema,
    description: textSchema,
    features: z.array(textSchema).max(12),
    usd_month: usdSchema,
    usd_year: usdSchema,
    tokens_month: z.number().int().min(1).max(10_000_000),
    tokens_year: z.number().int().min(1).max(100_000_000),
  })
  .strict();
export type PlanEntry = z.infer<typeof planEntrySchema>;

/** Four plans (ids 1–4), each about a third cheaper a token than buying packs, a year at ten months' price. */
export const DEFAULT_PLANS: PlanEntry[] = [
  {
    id: 1,
    name: { ru: 'Старт', en: 'Starter', zh: '入门' },
    description: { ru: 'Для магазина с парой новинок в неделю', en: 'For a shop with a couple of new models a week', zh: '适合每周上新几款的店铺' },
    features: [
      { ru: '200 токенов в месяц', en: '200 tokens a month', zh: '每月 200 个代币' },
      { ru: 'Все стили предметной съёмки', en: 'Every product-shot style', zh: '全部产品图风格' },
      { ru: 'Отмена в любой момент', en: 'Cancel any time', zh: '随时取消' },
    ],
    usd_month: 9.99,
    usd_year: 99.9,
    tokens_month: 200,
    tokens_year: 2400,
  },
  {
    id: 2,
    name: { ru: 'Про', en: 'Pro', zh: '专业' },
    description: { ru: 'Для продавца, который обновляет карточки каждый день', en: 'For a seller who refreshes listings every day', zh: '适合每天更新商品页的卖家' },
    features: [
      { ru: '600 токенов в месяц', en: '600 tokens a month', zh: '每月 600 个代币' },
      { ru: 'Постеры, цветовые карточки и видео', en: 'Posters, colour cards and videos', zh: '海报、配色卡和视频' },
      { ru: 'Приоритет в очереди', en: 'Priority in the queue', zh: '优先排队' },
    ],
    usd_month: 24.99,
    usd_year: 249.9,
    tokens_month: 600,
    tokens_year: 7200,
  },
  {
    id: 3,
    name: { ru: 'Бизнес', en: 'Business', zh: '商业' },
    description: { ru: 'Для бренда с несколькими магазинами на маркетплейсах', en: 'For a brand with several marketplace shops', zh: '适合拥有多个电商店铺的品牌' },
    features: [
      { ru: '2 000 токенов в месяц', en: '2,000 tokens a month', zh: '每月 2,000 个代币' },
      { ru: 'Фото на модели', en: 'Model photos', zh: '模特图' },
      { ru: 'Приоритет в очереди', en: 'Priority in the queue', zh: '优先排队' },
    ],
    usd_month: 69.99,
    usd_year: 699.9,
    tokens_month: 2000,
    tokens_year: 24_000,
  },
  {
    id: 4,
    name: { ru: 'Студия', en: 'Studio', zh: '工作室' },
    description: { ru: 'Для студии и агентства, которые снимают для многих продавцов', en: 'For a studio or agency shooting for many sellers', zh: '适合为众多卖家拍摄的工作室和代理' },
    features: [
      { ru: '6 000 токенов в месяц', en: '6,000 tokens a month', zh: '每月 6,000 个代币' },
      { ru: 'Всё из тарифа «Бизнес»', en: 'Everything in Business', zh: '包含商业版全部功能' },
      { ru: 'Персональная поддержка', en: 'Personal support', zh: '专属支持' },
    ],
    usd_month: 179.99,
    usd_year: 1799.9,
    tokens_month: 6000,
    tokens_year: 72_000,
  },
];

export const priceListSchema = z
  .object({
    packs: z.array(packSchema).min(1).max(12),
    /** Roubles per US dollar for the local provider's methods. */
    rub_per_usd: z.number().positive().max(100_000),
    plans: z.array(planEntrySchema).min(1).max(8).default(DEFAULT_PLANS),
  })
  .strict()
  .superRefine((list, ctx) => {
    const seen = new Set<number>();
    for (const [index, pack] of list.packs.entries()) {
      if (seen.has(pack.tokens)) ctx.addIssue({ code: 'custom', path: ['packs', index, 'tokens'], message: `${pack.tokens} tokens is listed twice` });
      seen.add(pack.tokens);
    }
    const ids = new Set<number>();
    for (const [index, plan] of list.plans.entries()) {
      if (ids.has(plan.id)) ctx.addIssue({ code: 'custom', path: ['plans', index, 'id'], message: `plan ${plan.id} is listed twice` });
      ids.add(plan.id);
    }
  });

export type PriceList = z.infer<typeof priceListSchema>;
export type Pack = PriceList['packs'][number];

/** A plan's text in the seller's language. */
export function planText(value: PlanText, locale: Locale): string {
  return typeof value === 'string' ? value : value[locale];
}

/** A plan at one interval as the page sees it (SPEC §3 Plan). */
export function planOf(entry: PlanEntry, interval: PlanInterval, locale: Locale): Plan {
  return {
    id: entry.id,
    name: planText(entry.name, locale),
    price: interval === 'month' ? entry.usd_month : entry.usd_year,
    interval,
    description: planText(entry.description, locale),
    features: JSON.stringify(entry.features.map((feature) => planText(feature, locale))),
    tokens: interval === 'month' ? entry.tokens_month : entry.tokens_year,
  };
}

/** Market-like defaults: about five cents a token, cheaper the more a seller buys at once. */
export const DEFAULT_PRICES: PriceList = {
  plans: DEFAULT_PLANS,
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
  return {
    ...parsed.data,
    packs: [...parsed.data.packs].sort((a, b) => a.tokens - b.tokens),
    plans: [...parsed.data.plans].sort((a, b) => a.usd_month - b.usd_month),
  };
}

/** SPEC's token tiers: credits → USD. */
export function tiersOf(list: PriceList): Tiers {
  return Object.fromEntries(list.packs.map((pack) => [String(pack.tokens), pack.usd]));
}

/**
 * The tokens a paid period gives (the one place this is decided): the plan's tokens for its price
 * in full; for less (a coupon, a discount) in proportion to what was paid, so a free invoice gives
 * none; nothing in a currency the plan is not priced in.
 */
export function periodTokens(entry: PlanEntry, interval: PlanInterval, paid: { amountMinor: number; currency: string }, list: PriceList): number {
  const currency = paid.currency.toUpperCase();
  if (currency !== 'USD' && currency !== 'RUB') return 0;
  const price = chargeMinor(interval === 'month' ? entry.usd_month : entry.usd_year, currency === 'USD' ? 1 : list.rub_per_usd, currency);
  const tokens = interval === 'month' ? entry.tokens_month : entry.tokens_year;
  if (paid.amountMinor >= price) return tokens;
  return Math.floor((tokens * Math.max(0, paid.amountMinor)) / price);
}
