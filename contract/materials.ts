// Materials (SPEC §3, §5, §7): the photos a seller uploads, the rules they must meet, and the
// calls that register, list, delete and check them.
import { z } from 'zod';
import { SHOE_VIEWS } from './enums';
import { text } from './text';

/** SPEC §5, §9: jpeg or png only; after compression a file over 10 MB is refused. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];
export const ACCEPTED_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The longest side and size compression aims for (SPEC §9). */
export const TARGET_MAX_SIDE = 2080;
export const TARGET_BYTES = 5 * 1024 * 1024;
/** Larger images are refused before they are decoded (about 50 megapixels). */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MATERIALS_PAGE_SIZE = 10;

/** SPEC §3: an edit upload's description — the edited picture, or a logo placed on one. */
export const EDIT_UPLOAD_DESCRIPTIONS = ['image edit', 'image edit (logo)'] as const;
export type EditUploadDescription = (typeof EDIT_UPLOAD_DESCRIPTIONS)[number];

const isEditUpload = (text: string): text is EditUploadDescription => (EDIT_UPLOAD_DESCRIPTIONS as readonly string[]).includes(text);

/** What a description says: a shoe photo's view, or which picture of an edit the upload is. */
const uploadPurposeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('photo'), view: z.enum(SHOE_VIEWS) }),
  z.object({ kind: z.literal('edit'), edit: z.enum(EDIT_UPLOAD_DESCRIPTIONS) }),
]);

/**
 * SPEC §3: a shoe photo's description is JSON text holding its view; an edit upload's is exactly
 * "image edit" or "image edit (logo)", and it has no view.
 */
export const descriptionTextRule = text()
  .max(500)
  .meta({ examples: ['{"view":"front"}', ...EDIT_UPLOAD_DESCRIPTIONS] })
  .transform((text, ctx) => {
    if (isEditUpload(text)) return { kind: 'edit' as const, edit: text };
    try {
      const parsed = JSON.parse(text) as { view?: unknown } | null;
      return { kind: 'photo' as const, view: parsed?.view };
    } catch {
      ctx.addIssue({ code: 'custom', message: 'description must be JSON text holding the view, "image edit" or "image edit (logo)"' });
      return z.NEVER;
    }
  })
  .pipe(uploadPurposeSchema);

export const uploadRequestSchema = z.object({
  file_name: text().trim().min(1).max(200),
  file_type: z.enum(ACCEPTED_IMAGE_TYPES),
  file_size: z.number().int().positive().max(MAX_UPLOAD_BYTES),
  description: descriptionTextRule,
});
export type UploadRequest = z.input<typeof uploadRequestSchema>;

/** A client-chosen key that makes registering the same photo twice return the same material. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;
export const idempotencyKeyRule = text().regex(IDEMPOTENCY_KEY);

/** The header of a call that creates something; its handler checks the key with its own message. */
export const idempotencyHeadersSchema = z.object({
  'idempotency-key': text().optional().meta({ pattern: IDEMPOTENCY_KEY.source }),
});

export const uploadTicketSchema = z.object({
  material_id: z.string(),
  /**
   * PUT exactly `file_size` bytes here with `Content-Type` set to the file type; any other size or
   * type is refused. Null once the upload was accepted: an accepted photo is never written again.
   */
  presigned_url: z.string().nullable(),
  /** When the URL stops working (ISO 8601); null with the URL. */
  expires_at: z.string().nullable(),
  status: z.enum(['pending', 'uploaded', 'rejected']),
  /** The stored file's key: what batch-create and an edit's logo layer name it by. */
  file_key: z.string(),
  /** A time-limited address to read the stored file; it answers once the bytes are uploaded. */
  public_url: z.string(),
});
export type UploadTicket = z.infer<typeof uploadTicketSchema>;

/** What the embedded storage answers once a photo's bytes PUT to `presigned_url` are checked. */
export const storedUploadSchema = uploadTicketSchema.pick({ material_id: true, status: true });

/** How much the seller keeps in storage, against the server's quota (STORAGE_QUOTA_MB). */
export const storageUsageSchema = z.object({
  used_bytes: z.number().int().nonnegative(),
  quota_bytes: z.number().int().positive(),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;

export const materialSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  file_type: z.string(),
  file_size: z.number().int(),
  description: z.string(),
  /** The shoe photo's view; null for an edit's picture or logo. */
  view: z.string().nullable(),
  status: z.enum(['pending', 'uploaded', 'rejected']),
  rejection: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** A time-limited address of the stored photo; null until it is uploaded. */
  file_url: z.string().nullable(),
  created_at: z.string(),
});
export type Material = z.infer<typeof materialSchema>;

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(MATERIALS_PAGE_SIZE),
});

export const materialIdParamsSchema = z.object({ id: z.uuid() });
/** The Idempotency-Key a photo was registered under. */
export const materialKeyParamsSchema = z.object({ key: idempotencyKeyRule });

// Shoe verification (SPEC §7): findings about one uploaded photo, shown on its slot.
export const FINDING_CHECKS = ['resolution', 'sharpness', 'exposure', 'subject', 'background'] as const;
export type FindingCheck = (typeof FINDING_CHECKS)[number];

export const verifyAngleRequestSchema = z.object({
  material_id: z.uuid(),
  view: z.enum(SHOE_VIEWS),
});

export const findingSchema = z.object({
  check: z.enum(FINDING_CHECKS),
  ok: z.boolean(),
  /** The measured value the verdict rests on (pixels, a score, a share of the frame). */
  value: z.number(),
  message: z.string(),
});
export type Finding = z.infer<typeof findingSchema>;

export const verificationSchema = z.object({
  material_id: z.string(),
  view: z.enum(SHOE_VIEWS),
  ok: z.boolean(),
  findings: z.array(findingSchema),
});
export type Verification = z.infer<typeof verificationSchema>;

// Shoe types and which of SPEC §3's parameters (cm) apply to each.
export const SHOE_PARAMS = ['shaftHeight', 'heelHeight', 'shaftLatitude', 'ankleLatitude'] as const;
export type ShoeParam = (typeof SHOE_PARAMS)[number];

export const shoeCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  params: z.array(z.enum(SHOE_PARAMS)),
});
export type ShoeCategory = z.infer<typeof shoeCategorySchema>;
