// Errors a route throws on purpose: an HTTP status, a stable machine name and a message key
// the error handler turns into the caller's language.
import type { MessageKey } from './i18n';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    readonly messageKey: MessageKey,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(error);
    this.name = 'HttpError';
  }
}
