// The publisher's vocabulary: the marketplaces a seller can connect, the keys each asks for, the
// rules each puts on pictures and video, and what /api/v1/publisher answers.
import { z } from 'zod';
import { rule } from './rules';

/** `demo` is the store this server plays itself, offered only where nothing real is expected. */
export const PLATFORMS = ['wildberries', 'ozon', 'amazon', 'demo'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** A publication as a whole: waiting for its job, being sent, or ended (`partial`: some pictures failed). */
export const PUBLICATION_STATUSES = ['queued', 'running', 'done', 'partial', 'failed'] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];
/** One picture or video of a publication. */
export const PUBLICATION_ITEM_STATUSES = ['pending', 'sent', 'applied', 'failed'] as const;
export type PublicationItemStatus = (typeof PUBLICATION_ITEM_STATUSES)[number];

/** Amazon's Selling Partner API regions (each its own endpoint). */
export const AMAZON_REGIONS = ['na', 'eu', 'fe'] as const;

/** A key as platforms issue them: visible ASCII, no spaces (it travels in a header or a form). */
const key = (max = 4096) => z.string().trim().min(1, rule('required')).max(max, rule('store_key')).regex(/^[\x21-\x7E]+$/, rule('store_key'));

/** The keys a seller pastes, per platform. */
export const connectRequestSchema = z.discriminatedUnion('platform', [
  z.object({ platform: z.literal('wildberries'), token: key() }),
  z.object({ platform: z.literal('ozon'), client_id: key(32).regex(/^\d+$/, rule('store_client_id')), api_key: key(128) }),
  z.object({
    platform: z.literal('amazon'),
    client_id: key(256),
    client_secret: key(256),
    refresh_token: key(),
    seller_id: key(64),
    region: z.enum(AMAZON_REGIONS),
    marketplace_id: key(32),
  }),
  z.object({ platform: z.literal('demo') }),
]);
export type ConnectRequest = z.infer<typeof connectRequestSchema>;

/** The fields a platform's form shows, in order; `secret` ones are typed as passwords and never shown again. */
export const PLATFORM_FIELDS: Record<Platform, readonly { name: string; secret: boolean }[]> = {
  wildberries: [{ name: 'token', secret: true }],
  ozon: [
    { name: 'client_id', secret: false },
    { name: 'api_key', secret: true },
  ],
  amazon: [
    { name: 'seller_id', secret: false },
    { name: 'region', secret: false },
    { name: 'marketplace_id', secret: false },
    { name: 'client_id', secret: false },
    { name: 'client_secret', secret: true },
    { name: 'refresh_token', secret: true },
  ],
  demo: [],
};

export interface MediaRules {
  maxImages: number;
  minWidth: number;
  minHeight: number;
  maxImageBytes: number;
  formats: readonly ('jpeg' | 'png' | 'webp')[];
  /** A video on the card: its largest size, or null when the platform takes none through its API. */
  maxVideoBytes: number | null;
  /** Whether sending pictures replaces all of the card's (so the current ones must be sent along). */
  replacesAll: boolean;
  /** Whether the main picture must be on pure white. */
  whiteMain: boolean;
  /** Whether the platform fetches pictures from a public URL of this server (rather than taking the bytes). */
  needsPublicUrl: boolean;
}

/** Wildberries' rules: the demo store plays by them too. */
const WILDBERRIES_RULES: MediaRules = {
  maxImages: 30,
  minWidth: 700,
  minHeight: 900,
  maxImageBytes: 32 * 1024 * 1024,
  formats: ['jpeg', 'png', 'webp'],
  maxVideoBytes: 50 * 1024 * 1024,
  replacesAll: true,
  whiteMain: false,
  needsPublicUrl: false,
};

export const MEDIA_RULES: Record<Platform, MediaRules> = {
  wildberries: WILDBERRIES_RULES,
  ozon: {
    maxImages: 30,
    minWidth: 200,
    minHeight: 200,
    maxImageBytes: 10 * 1024 * 1024,
    formats: ['jpeg', 'png'],
    maxVideoBytes: null,
    replacesAll: true,
    whiteMain: false,
    needsPublicUrl: true,
  },
  amazon: {
    maxImages: 9,
    minWidth: 500,
    minHeight: 500,
    maxImageBytes: 10 * 1024 * 1024,
    formats: ['jpeg', 'png'],
    maxVideoBytes: null,
    replacesAll: false,
    whiteMain: true,
    needsPublicUrl: true,
  },
  demo: WILDBERRIES_RULES,
};

export const connectionSchema = z.object({
  id: z.uuid(),
  platform: z.enum(PLATFORMS),
  account_id: z.string(),
  account_name: z.string(),
  /** The last four characters of the main key: all an answer ever shows of it. */
  key_hint: z.string(),
  expires_at: z.string().nullable(),
  status: z.enum(['active', 'invalid']),
  created_at: z.string(),
});
export type Connection = z.infer<typeof connectionSchema>;

export const mediaRulesSchema = z.object({
  max_images: z.number().int(),
  min_width: z.number().int(),
  min_height: z.number().int(),
  max_image_bytes: z.number().int(),
  formats: z.array(z.enum(['jpeg', 'png', 'webp'])),
  max_video_bytes: z.number().int().nullable(),
  replaces_all: z.boolean(),
  white_main: z.boolean(),
});

export const platformSchema = z.object({
  id: z.enum(PLATFORMS),
  fields: z.array(z.object({ name: z.string(), secret: z.boolean() })),
  connected: z.boolean(),
  rules: mediaRulesSchema,
  /** Whether the platform fetches pictures from this server, and whether this server can be reached for it. */
  needs_public_url: z.boolean(),
  public_url_reachable: z.boolean(),
  demo: z.boolean(),
});
export type PlatformInfo = z.infer<typeof platformSchema>;

/** A product card on the seller's store, as the picker shows it. */
export const storeProductSchema = z.object({
  /** The platform's id of the card: nmID, product_id, or the SKU. */
  id: z.string(),
  /** The seller's own article: vendorCode, offer_id, or the SKU. */
  article: z.string(),
  title: z.string(),
  thumbnail: z.string().nullable(),
  pictures: z.number().int(),
  has_video: z.boolean(),
});
export type StoreProduct = z.infer<typeof storeProductSchema>;

export const storeProductPageSchema = z.object({
  items: z.array(storeProductSchema),
  /** The next page's cursor; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type StoreProductPage = z.infer<typeof storeProductPageSchema>;

/** How many publications a page of the seller's list holds unless asked otherwise. */
export const PUBLICATIONS_PAGE_SIZE = 10;

/** How many cards a page of the picker holds. */
export const PRODUCT_PAGE_SIZE = 20;

/** The most results one publication takes (a card holds at most 30 pictures on any platform). */
export const PUBLISH_MAX_RESULTS = 30;

/** What a seller asks to publish: results from My materials, onto one card of a connected store. */
export const publishRequestSchema = z.object({
  connection_id: z.uuid(),
  product_id: z.string().trim().min(1, rule('required')).max(64).regex(/^[\x21-\x7E]+$/, rule('store_key')),
  /** Shown in the seller's list of publications, as the picker showed them. */
  product_article: z.string().trim().max(200).default(''),
  product_title: z.string().trim().max(500).default(''),
  asset_ids: z.array(z.uuid()).min(1).max(PUBLISH_MAX_RESULTS),
  placement: z.enum(['main', 'gallery']),
  mode: z.enum(['append', 'replace']),
});
export type PublishRequest = z.infer<typeof publishRequestSchema>;

export const publicationItemSchema = z.object({
  position: z.number().int(),
  asset_id: z.uuid().nullable(),
  kind: z.enum(['image', 'video']),
  status: z.enum(PUBLICATION_ITEM_STATUSES),
  message: z.string().nullable(),
  remote_url: z.string().nullable(),
});

export const publicationSchema = z.object({
  id: z.uuid(),
  platform: z.enum(PLATFORMS),
  connection_id: z.uuid().nullable(),
  product: z.object({ id: z.string(), article: z.string(), title: z.string() }),
  placement: z.enum(['main', 'gallery']),
  mode: z.enum(['append', 'replace']),
  status: z.enum(PUBLICATION_STATUSES),
  message: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  items: z.array(publicationItemSchema),
});
export type Publication = z.infer<typeof publicationSchema>;

/** On the seller's event stream when a publication ends: how many of its pictures are on the card. */
export const publicationEventSchema = z.object({
  type: z.literal('publication_updated'),
  publication_id: z.uuid(),
  status: z.enum(['done', 'partial', 'failed']),
  applied: z.number().int(),
  failed: z.number().int(),
});
export type PublicationEvent = z.infer<typeof publicationEventSchema>;
