// The vocabulary of SPEC §3 and §4, shared by the server, the page and the workers.

/** Shoe upload views (slot ids), in the order of the guided sequence. */
export const REQUIRED_VIEWS = ['right_45', 'right_side', 'left_side', 'front', 'back'] as const;
export const OPTIONAL_VIEWS = ['bottom', 'optional1', 'optional2'] as const;
export const SHOE_VIEWS = [...REQUIRED_VIEWS, ...OPTIONAL_VIEWS] as const;
export type ShoeView = (typeof SHOE_VIEWS)[number];

export const CONTENT_MODULES = [
  'REAL_PERSON_IMAGE',
  'PRODUCT_IMAGE',
  'OUTFIT_IMAGE',
  'CREATIVE_VIDEO',
] as const;
export type ContentModule = (typeof CONTENT_MODULES)[number];

/** The content type a workspace tile passes to /task (SPEC §2). */
export const CONTENT_TYPES = ['person', 'product', 'outfit', 'video'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const CONTENT_MODULE_OF: Record<ContentType, ContentModule> = {
  person: 'REAL_PERSON_IMAGE',
  product: 'PRODUCT_IMAGE',
  outfit: 'OUTFIT_IMAGE',
  video: 'CREATIVE_VIDEO',
};

export const CATEGORIES = [
  'HALF_BODY',
  'FULL_BODY',
  'PRODUCT',
  'PRODUCT2',
  'POSTER',
  'OUTFIT_STILL_LIFE',
  'OUTFIT_COLOR',
  'CREATIVE_VIDEO',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const BACKGROUNDS = ['SCENE', 'SIMPLE', 'CUSTOM'] as const;
export type Background = (typeof BACKGROUNDS)[number];

export const CREATIVE_SCENES = [
  'SHOE_GIANT',
  'SHOE_PLANT',
  'SHOE_CRYSTAL',
  'SHOE_LIQUID_METAL',
  'SHOE_SAND',
  'SHOE_FISHEYE_JUMP',
  'SHOE_PHANTOM',
  'SHOE_FRUIT',
  'SHOE_BARBIE',
  'SHOE_MOUNTAIN',
  'CUSTOM',
] as const;
export type CreativeScene = (typeof CREATIVE_SCENES)[number];

/**
 * PRODUCT's looks: a photographic studio shot (3:4), the Wildberries and Ozon card (3:4, at least
 * 900×1200, light seamless backdrop) and Amazon's main image (1:1, pure white, the product filling
 * at least 85 % of the frame).
 */
export const PRODUCT_PRESETS = ['STUDIO', 'WB_OZON', 'AMAZON'] as const;
export type ProductPreset = (typeof PRODUCT_PRESETS)[number];

export const TASK_STATUSES = [
  'pending',
  'processing',
  'completed',
  'partially_completed',
  'failed',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const FAILURE_TYPES = ['system_error', 'manual_rejection'] as const;
export type FailureType = (typeof FAILURE_TYPES)[number];

export const LEDGER_ENTRY_TYPES = [
  'top_up',
  'content_generation',
  'subscription',
  'sign_up_bonus',
  'refund',
] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export const SUBSCRIPTION_STATUSES = [
  'pending',
  'failed',
  'revoked',
  'active',
  'canceled',
  'past_due',
  'unpaid',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** SPEC §9: the plan that cannot be upgraded. */
export const NON_UPGRADABLE_PLAN_ID = 4;
