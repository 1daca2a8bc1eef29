// Generated assets (SPEC §3 generated asset, §7 Content assets): material history's sections,
// its pages, deleting, and downloading a selection as one zip. Shared by the server and the page.
import { z } from 'zod';
import { CATEGORIES, CONTENT_MODULES, type Category } from './enums';

/** SPEC §9: material history pages hold 8 per category. */
export const ASSETS_PAGE_SIZE = 8;
/** The most assets one delete or download names. */
export const MAX_ASSETS_PER_CALL = 100;
/** A zip's address works this long. */
export const ASSET_DOWNLOAD_LIFETIME_S = 10 * 60;

/** Material history's sections, in the order the page shows them (SPEC §2). */
export const MATERIAL_SECTIONS = ['HALF_BODY', 'FULL_BODY', 'POSTER', 'PRODUCT', 'OUTFIT_STILL_LIFE', 'OUTFIT_COLOR', 'CREATIVE_VIDEO'] as const;
export type MaterialSection = (typeof MATERIAL_SECTIONS)[number];

/** The categories each section holds: the multi-angle card sits with the product shots. */
export const SECTION_CATEGORIES: Record<MaterialSection, readonly Category[]> = {
  HALF_BODY: ['HALF_BODY'],
  FULL_BODY: ['FULL_BODY'],
  POSTER: ['POSTER'],
  PRODUCT: ['PRODUCT', 'PRODUCT2'],
  OUTFIT_STILL_LIFE: ['OUTFIT_STILL_LIFE'],
  OUTFIT_COLOR: ['OUTFIT_COLOR'],
  CREATIVE_VIDEO: ['CREATIVE_VIDEO'],
};

export const assetListQuerySchema = z.object({
  material_category: z.enum(MATERIAL_SECTIONS).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(ASSETS_PAGE_SIZE),
});

export const assetSchema = z.object({
  id: z.string(),
  file_url: z.string(),
  file_type: z.string(),
  task_id: z.string().nullable(),
  category: z.enum(CATEGORIES),
  background: z.string().nullable(),
  creative_scene: z.string().nullable(),
  content_module: z.enum(CONTENT_MODULES),
  width: z.number().int(),
  height: z.number().int(),
  created_at: z.string(),
});
export type Asset = z.infer<typeof assetSchema>;

export const assetIdsSchema = z.object({
  asset_ids: z
    .array(z.uuid())
    .min(1)
    .max(MAX_ASSETS_PER_CALL)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'asset_ids repeats an id' }),
});

export const assetDownloadSchema = z.object({
  download_url: z.string(),
  expires_at: z.string(),
  total: z.number().int(),
});

export const assetDownloadQuerySchema = z.object({ token: z.string().min(1).max(8000) });
