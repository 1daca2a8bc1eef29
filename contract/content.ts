// Content (SPEC §3, §7 Content): what the engines can make, submitting a task, and reading
// tasks back. Shared by the server's routes and the page's calls.
import { z } from 'zod';
import {
  BACKGROUNDS,
  CATEGORIES,
  CONTENT_MODULES,
  CREATIVE_SCENES,
  PRODUCT_PRESETS,
  FAILURE_TYPES,
  SHOE_VIEWS,
  TASK_STATUSES,
} from './enums';
import { text } from './text';

/** SPEC §9: task history pages hold 10. */
export const TASKS_PAGE_SIZE = 10;
/** A custom-scene description longer than this is refused. */
export const PROMPT_MAX = 1000;
/** Shoe measurements are centimetres; nothing a shoe measures is over a metre. */
const centimetres = z.number().min(0).max(100);

export const shoeParamsSchema = z.object({
  boot_height: centimetres.optional(),
  heel_height: centimetres.optional(),
  boot_circumference: centimetres.optional(),
  ankle_circumference: centimetres.optional(),
});

export const contentConfigEntrySchema = z.object({
  content_module: z.enum(CONTENT_MODULES),
  category: z.enum(CATEGORIES),
  background: z.enum(BACKGROUNDS).optional(),
  creative_scene: z.enum(CREATIVE_SCENES).optional(),
  custom_params: z.object({
    shoe_params: shoeParamsSchema.default({}),
    custom_scene_description: text().trim().max(PROMPT_MAX).optional(),
  }),
  name: text().trim().min(1).max(100),
  selected: z.boolean().default(true),
  /** PRODUCT only: the look (a studio shot when absent). */
  preset: z.enum(PRODUCT_PRESETS).optional(),
  /** PRODUCT only: the uploaded views to make shots of (all of them when absent). */
  views: z.array(z.enum(SHOE_VIEWS)).min(1).max(SHOE_VIEWS.length).optional(),
});
export type ContentConfigEntryInput = z.input<typeof contentConfigEntrySchema>;

export const generateRequestSchema = z.object({
  content_config: z.array(contentConfigEntrySchema).min(1).max(40),
  material_ids: z.array(z.uuid()).min(1).max(SHOE_VIEWS.length),
});
export type GenerateRequest = z.input<typeof generateRequestSchema>;

export const generateResultSchema = z.object({
  id: z.string(),
  status: z.enum(TASK_STATUSES),
  /** Tokens charged for the planned outputs. */
  cost: z.number().int(),
  /** The balance after the charge. */
  total_tokens: z.number().int(),
});
export type GenerateResult = z.infer<typeof generateResultSchema>;

/** One option (a category, a background or a scene) as the configured engines offer it. */
export const optionAvailabilitySchema = z.object({
  available: z.boolean(),
  /** Why it cannot be chosen, in the caller's language; null when available. */
  reason: z.string().nullable(),
});

export const subOptionSchema = optionAvailabilitySchema.extend({
  value: z.union([z.enum(BACKGROUNDS), z.enum(CREATIVE_SCENES), z.enum(PRODUCT_PRESETS)]),
});
export type SubOptionAvailability = z.infer<typeof subOptionSchema>;

export const categoryOfferSchema = optionAvailabilitySchema.extend({
  category: z.enum(CATEGORIES),
  content_module: z.enum(CONTENT_MODULES),
  /** Tokens per output. */
  price: z.number().int().nonnegative(),
  /** Backgrounds (model photos) or creative scenes (video), CUSTOM included. */
  sub_options: z.array(subOptionSchema),
  /** Whether a custom scene description can be followed for this category. */
  custom: optionAvailabilitySchema,
});
export type CategoryOffer = z.infer<typeof categoryOfferSchema>;

/** The engines that generate on this server. */
export const ENGINE_NAMES = ['studio', 'remote', 'comfyui'] as const;

/** One engine configured on this server and the categories it makes here. */
export const engineOfferSchema = z.object({
  name: z.enum(ENGINE_NAMES),
  categories: z.array(z.enum(CATEGORIES)),
});

export const contentCatalogueSchema = z.object({
  categories: z.array(categoryOfferSchema),
  /** The configured engines; an answer saved before engines were listed reads as none. */
  engines: z.array(engineOfferSchema).default([]),
});
export type ContentCatalogue = z.infer<typeof contentCatalogueSchema>;

export const taskMaterialSchema = z.object({
  id: z.string(),
  file_url: z.string().nullable(),
  /** JSON text holding the view (SPEC §3). */
  description: z.string(),
});

export const taskResultItemSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** A video's poster frame, its thumbnail; null for a picture. */
  poster_url: z.string().nullable(),
  file_type: z.string(),
  category: z.enum(CATEGORIES),
  background: z.string().nullable(),
  creative_scene: z.string().nullable(),
  content_module: z.enum(CONTENT_MODULES),
});
export type TaskResultItem = z.infer<typeof taskResultItemSchema>;

export const taskOutputSchema = z.object({
  name: z.string(),
  category: z.enum(CATEGORIES),
  view: z.string().nullable(),
  cost: z.number().int(),
  status: z.enum(['pending', 'completed', 'failed']),
  error: z.string().nullable(),
});

export const taskSchema = z.object({
  id: z.string(),
  status: z.enum(TASK_STATUSES),
  failure_type: z.enum(FAILURE_TYPES).nullable(),
  content_config: z.array(z.record(z.string(), z.unknown())),
  config_history: z.array(z.record(z.string(), z.unknown())),
  material_ids: z.array(z.string()),
  materials: z.array(taskMaterialSchema),
  /** The selected entries, as the history list shows them (SPEC §3 parameters). */
  parameters: z.array(z.record(z.string(), z.unknown())),
  outputs: z.array(taskOutputSchema),
  result: z.array(taskResultItemSchema),
  cost: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Task = z.infer<typeof taskSchema>;

export const failureDetailSchema = z.object({
  id: z.string(),
  material_id: z.string(),
  file_url: z.string().nullable(),
  reason: z.string(),
});
export type FailureDetail = z.infer<typeof failureDetailSchema>;

export const taskIdParamsSchema = z.object({ id: z.uuid() });

export const taskListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(TASKS_PAGE_SIZE),
});

/** Makes one more output like an existing asset's, under a new task (SPEC §4 retry). */
export const regenerateRequestSchema = z.object({ asset_id: z.uuid() });

/** What the server pushes over the event stream when a task ends (SPEC §4 notifications). */
export const taskEventSchema = z.object({
  type: z.literal('task_updated'),
  task_id: z.string(),
  status: z.enum(TASK_STATUSES),
  failure_type: z.enum(FAILURE_TYPES).nullable(),
});
export type TaskEvent = z.infer<typeof taskEventSchema>;

export const eventTicketSchema = z.object({
  /** Opens the event stream once, within its short life: `GET /api/v1/events?ticket=…`. */
  ticket: z.string(),
  expires_at: z.string(),
});

type Named = Record<string, unknown> & { name?: unknown };

/** SPEC §7: the latest history entry of each name, merged over the config entry of that name. */
export function mergeConfigHistory<T extends Named>(config: readonly T[], history: readonly Named[]): T[] {
  const latest = new Map<unknown, Named>();
  for (const entry of history) latest.set(entry.name, { ...latest.get(entry.name), ...entry });
  return config.map((entry) => ({ ...entry, ...latest.get(entry.name) }) as T);
}
