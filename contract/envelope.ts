// The response envelope every API route answers with (SPEC §7: success is an HTTP success or
// a body code 200-299; paged lists carry meta.total, meta.total_pages and meta.page).
import { z } from 'zod';

export const pageMetaSchema = z.object({
  total: z.number().int().nonnegative(),
  total_pages: z.number().int().nonnegative(),
  page: z.number().int().positive(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/** `{ code, message, data }` around a successful answer. */
export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}

/** `{ code, message, data: [...], meta }` around one page of a list. */
export function pagedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    code: z.number().int(),
    message: z.string(),
    data: z.array(item),
    meta: pageMetaSchema,
  });
}

export const fieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * Every failure: `code` repeats the HTTP status, `error` is a stable machine-readable name,
 * `message` is already in the caller's language, `errors` names the fields of a bad request.
 */
export const errorEnvelopeSchema = z.object({
  code: z.number().int(),
  error: z.string(),
  message: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
