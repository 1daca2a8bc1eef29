// Plain helpers about response codes, free of zod so the page can use them without loading it.

/** SPEC §7: a body code in 200-299 counts as success. */
export function isSuccessCode(code: unknown): boolean {
  return typeof code === 'number' && code >= 200 && code <= 299;
}

export interface FieldErrorShape {
  field: string;
  message: string;
}
