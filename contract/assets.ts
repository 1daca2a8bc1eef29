// Generated assets (SPEC §3 generated asset, §7 Content assets): material history's sections,
// its pages, deleting, and downloading a selection as one zip. Shared by the server and the page.
import { z } from 'zod';
import { BACKGROUNDS, CATEGORIES, CONTENT_MODULES, type Category } from './enums';
import { editDescriptionSchema } from './edit';
import { text } from './text';

/** SPEC §9: material history pages hold 8 per category. */
export const ASSETS_PAGE_SIZE = 8;
/** The most assets one delete or download names. */
export const MAX_ASSETS_PER_CALL = 100;
/** The most results one batch-create adds. */
export const MAX_ASSETS_PER_CREATE = 20;
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

/** The files an edited picture reopens with, at addresses that work for an hour. */
const editFilesSchema = z.object({
  /** The source asset's file; null once the seller has deleted that asset. */
  source_url: z.string().nullable(),
  /** Each logo layer's file by its file_key; a logo whose upload the seller no longer has is left out. */
  logos: z.record(z.string(), z.string()),
});
export type EditFiles = z.infer<typeof editFilesSchema>;

export const assetSchema = z.object({
  id: z.string(),
  file_url: z.string(),
  /** A video's poster frame, its thumbnail; null for a picture. */
  poster_url: z.string().nullable(),
  file_type: z.string(),
  task_id: z.string().nullable(),
  category: z.enum(CATEGORIES),
  background: z.string().nullable(),
  creative_scene: z.string().nullable(),
  content_module: z.enum(CONTENT_MODULES),
  width: z.number().int(),
  height: z.number().int(),
  created_at: z.string(),
  /** How an edited picture was made (its layers reopen in the editor); null for a generated one. */
  edit_meta: editDescriptionSchema.nullable().optional(),
  /** The files `edit_meta` names, to reopen it with; null when there is no edit_meta. */
  edit_files: editFilesSchema.nullable(),
});
export type Asset = z.infer<typeof assetSchema>;

/** One result by its id (an edit opens on it). */
export const assetIdParamsSchema = z.object({ id: z.uuid() });

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

export const assetDownloadQuerySchema = z.object({ token: text().min(1).max(8000) });

/** One result made outside a task's outputs, such as an edited image (SPEC §7 batch-create). */
export const assetCreateItemSchema = z.object({
  /** The task the result belongs with, if any. */
  task_id: z.uuid().nullable().optional(),
  /** The storage key of an image the seller has uploaded. */
  file_key: text().min(1).max(300),
  /** Sent by the page for its own use; the server answers with its own address. */
  file_url: text().max(4000).optional(),
  content_config: z.object({
    category: z.enum(CATEGORIES),
    background: z.enum(BACKGROUNDS).nullable().optional(),
    content_module: z.enum(CONTENT_MODULES),
  }),
  /**
   * The edit the picture was made with (contract/edit.ts); its source must be one of the seller's
   * assets, and each logo layer's file_key one of the seller's uploads.
   */
  edit_meta: editDescriptionSchema.optional(),
});
export type AssetCreateItem = z.infer<typeof assetCreateItemSchema>;

export const assetBatchCreateSchema = z.array(assetCreateItemSchema).min(1).max(MAX_ASSETS_PER_CREATE);
