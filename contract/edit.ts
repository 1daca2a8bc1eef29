// An edit of a finished picture (SPEC §2 Image editor, §3 Saved edit record, §9 text size and crop
// ratios) as one plain description: the source asset, the crop rectangle in the source's pixels,
// and the text and logo layers on top. The editor's preview and the full-resolution picture are
// both drawn from it, the server keeps it as the new asset's `edit_meta`, and "Edit" on an edited
// asset reopens it layer by layer. Positions are fractions of the cropped picture, so one
// description draws the same at any size.
import { z } from 'zod';
import { text } from './text';

export const EDIT_VERSION = 1;

/** SPEC §9: text size 12 to 72, in pixels of a picture 1080 wide (it scales with the picture). */
export const TEXT_SIZE_MIN = 12;
export const TEXT_SIZE_MAX = 72;
export const TEXT_REFERENCE_WIDTH = 1080;

/** SPEC §9's crop ratios, and 3:4 for Wildberries and Ozon; `free` keeps whatever rectangle was drawn. */
export const CROP_RATIOS = { '1:1': 1, '4:3': 4 / 3, '16:9': 16 / 9, '3:4': 3 / 4 } as const;
export type CropRatio = keyof typeof CROP_RATIOS;

/** The smallest pictures marketplaces take, width × height (the editor warns below them). */
export const MARKETPLACE_MINIMUMS = {
  wildberries: { width: 900, height: 1200 },
  ozon: { width: 900, height: 1200 },
  amazon: { width: 1000, height: 1000 },
} as const;

/** The font families the editor serves (each with Cyrillic and CJK glyphs), by role. */
export const EDIT_FONTS = ['sans', 'serif', 'display'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
/** The most layers one edit holds. */
export const MAX_LAYERS = 20;
/** The largest side of a source the editor accepts (the studio's outputs are at most 2080 px). */
export const MAX_SOURCE_SIDE = 10_000;

const colour = z.string().regex(/^#[0-9a-f]{6}$/i, 'a colour is #rrggbb');
const fraction = z.number().min(0).max(1);
const placement = {
  /** The layer's centre, as fractions of the cropped picture's width and height. */
  x: fraction,
  y: fraction,
  /** Degrees, clockwise. */
  rotation: z.number().min(-180).max(180).default(0),
  scale: z.number().min(0.05).max(20).default(1),
};
const layerId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a layer id is 1–40 letters, digits, - or _');

export const textLayerSchema = z.object({
  type: z.literal('text'),
  id: layerId,
  text: text().trim().min(1).max(500),
  font: z.enum(EDIT_FONTS).default('sans'),
  size: z.number().int().min(TEXT_SIZE_MIN).max(TEXT_SIZE_MAX),
  color: colour,
  bold: z.boolean().default(false),
  align: z.enum(TEXT_ALIGNS).default('center'),
  /** A plate behind the text for legibility, or none. */
  plate: colour.nullable().default(null),
  ...placement,
});
export type TextLayer = z.output<typeof textLayerSchema>;

export const logoLayerSchema = z.object({
  type: z.literal('logo'),
  id: layerId,
  /** The uploaded logo's storage key (SPEC §3: the edit upload "image edit (logo)" answers it). */
  file_key: text().min(1).max(300),
  /** The logo image's own size in pixels. */
  width: z.number().int().min(1).max(MAX_SOURCE_SIDE),
  height: z.number().int().min(1).max(MAX_SOURCE_SIDE),
  opacity: z.number().min(0.05).max(1).default(1),
  ...placement,
});
export type LogoLayer = z.output<typeof logoLayerSchema>;

export const editLayerSchema = z.discriminatedUnion('type', [textLayerSchema, logoLayerSchema]);
export type EditLayer = z.output<typeof editLayerSchema>;

const side = z.number().int().min(1).max(MAX_SOURCE_SIDE);

export const editDescriptionSchema = z
  .object({
    version: z.literal(EDIT_VERSION),
    source: z.object({ asset_id: z.uuid(), width: side, height: side }),
    /** The part of the source kept, in its pixels; `ratio` is the format chosen, or null for the whole or a free crop. */
    crop: z.object({
      ratio: z.enum(Object.keys(CROP_RATIOS) as [CropRatio, ...CropRatio[]]).nullable(),
      x: z.number().int().min(0),
      y: z.number().int().min(0),
      width: side,
      height: side,
    }),
    layers: z.array(editLayerSchema).max(MAX_LAYERS),
    /** Save as PNG, keeping transparency, instead of JPEG. */
    keep_transparency: z.boolean().default(false),
  })
  .superRefine((edit, ctx) => {
    for (const problem of editProblems(edit)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
export type EditDescription = z.output<typeof editDescriptionSchema>;
export type EditDescriptionInput = z.input<typeof editDescriptionSchema>;

type Shape = Pick<EditDescription, 'source' | 'crop' | 'layers'>;

/** What breaks the rules a schema cannot say field by field: the crop inside the source, at its ratio, layer ids unique. */
export function editProblems({ source, crop, layers }: Shape): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (crop.x + crop.width > source.width || crop.y + crop.height > source.height) {
    problems.push({ path: ['crop'], message: 'the crop reaches outside the source picture' });
  }
  if (crop.ratio) {
    // Whole pixels: a crop at a ratio may be off by the rounding of one side.
    const wanted = CROP_RATIOS[crop.ratio];
    if (Math.abs(crop.width - crop.height * wanted) > Math.max(1, wanted)) {
      problems.push({ path: ['crop'], message: `the crop is not ${crop.ratio}` });
    }
  }
  const seen = new Set<string>();
  layers.forEach((layer, index) => {
    if (seen.has(layer.id)) problems.push({ path: ['layers', index, 'id'], message: 'two layers have one id' });
    seen.add(layer.id);
  });
  return problems;
}

/** The largest crop of a ratio that fits the source, centred (the crop tool's start). */
export function centredCrop(source: { width: number; height: number }, ratio: CropRatio | null): EditDescription['crop'] {
  if (!ratio) return { ratio: null, x: 0, y: 0, width: source.width, height: source.height };
  const wanted = CROP_RATIOS[ratio];
  const width = Math.min(source.width, Math.round(source.height * wanted));
  const height = Math.min(source.height, Math.round(width / wanted));
  return { ratio, x: Math.floor((source.width - width) / 2), y: Math.floor((source.height - height) / 2), width, height };
}

/** A text layer's size in pixels of a picture `width` wide. */
export function textPixels(size: number, width: number): number {
  return (size * width) / TEXT_REFERENCE_WIDTH;
}

/** The marketplaces whose minimum the edited picture (the crop's size) does not reach. */
export function marketplacesBelowMinimum(crop: { width: number; height: number }): (keyof typeof MARKETPLACE_MINIMUMS)[] {
  return (Object.keys(MARKETPLACE_MINIMUMS) as (keyof typeof MARKETPLACE_MINIMUMS)[]).filter((name) => {
    const minimum = MARKETPLACE_MINIMUMS[name];
    return crop.width < minimum.width || crop.height < minimum.height;
  });
}
