// The response envelope every API route answers with (SPEC §7: success is an HTTP success or
// a body code 200-299; paged lists carry meta.total, meta.total_pages and meta.page), and the
// failures a route declares with errorResponses().
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

/** What each failure status means, as the API documents it. */
const ERROR_STATUSES = {
  400: 'The request is malformed or a field is invalid; `errors` names the fields',
  401: 'Not signed in: no live session, credentials that do not match, or a ticket that is not valid',
  402: 'The balance does not cover the cost',
  403: 'Not allowed: an address whose signature is not valid, or an e-mail not yet confirmed',
  404: 'Not found, or not the seller’s',
  409: 'In conflict with what the server holds (an Idempotency-Key used for another request, a photo in use, a task still running, store keys sealed under another server key)',
  413: 'The body is larger than the route takes, or the seller’s storage quota is used up (STORAGE_QUOTA_EXCEEDED)',
  415: 'The body is of a type the route does not take',
  422: 'The image cannot be read, or has too many pixels; or a marketplace refused the store keys given (the message says what to fix)',
  429: 'Too many requests (here, or at the marketplace a request goes to): the Retry-After header says how many seconds to wait',
  500: 'Something failed inside the server; the answer says nothing about what',
  502: 'The payment provider refused the request (nothing was charged), or a marketplace did not answer',
  503: 'The payment provider cannot be reached now; nothing was charged, try again later',
} as const;
type ErrorStatus = keyof typeof ERROR_STATUSES;

function failureSchema<S extends ErrorStatus>(status: S) {
  return errorEnvelopeSchema.extend({ code: z.literal(status) }).meta({ description: ERROR_STATUSES[status] });
}
type FailureSchema<S extends ErrorStatus> = ReturnType<typeof failureSchema<S>>;

const failures = new Map<ErrorStatus, FailureSchema<ErrorStatus>>();

/** The error envelope of one status: its `code` is that status. */
function errorEnvelope<S extends ErrorStatus>(status: S): FailureSchema<S> {
  let schema = failures.get(status);
  if (!schema) {
    schema = failureSchema(status);
    failures.set(status, schema);
  }
  return schema as FailureSchema<S>;
}

/**
 * The failures a route declares, each as the error envelope of its status, beside its success:
 * `response: { 200: okEnvelope(x), ...errorResponses(400, 401) }`. Every route can fail inside,
 * so 500 is always among them.
 */
export function errorResponses<const S extends ErrorStatus[]>(...statuses: S): { [K in S[number] | 500]: FailureSchema<K> } {
  return Object.fromEntries([...statuses, 500 as const].map((status) => [status, errorEnvelope(status)])) as {
    [K in S[number] | 500]: FailureSchema<K>;
  };
}
