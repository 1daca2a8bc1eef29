// Turning a failed call into what the form shows: the server's message, and its field errors.
import { ApiError } from '../../lib/api-client';
import { i18next } from '../../lib/i18n';

export function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : i18next.t('common.errors.internal_server_error');
}

export function codeOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/** Seconds to wait after a 429, when the server said. */
export function waitOf(error: unknown): number | undefined {
  return error instanceof ApiError && error.status === 429 ? error.retryAfterS : undefined;
}

export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
