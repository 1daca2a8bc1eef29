// Every failure leaves the server as the error envelope, in the caller's language: validation
// errors name their fields, unknown /api routes answer 404, and a 5xx never shows internals.
// Routes answer only what they declare (contract/responses.ts): a body their schema refuses or a
// status they do not declare is logged as the bug it is and answered as a 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ErrorEnvelope, FieldError } from '../../contract/envelope';
import type { Locale } from '../../contract/locales';
import { HttpError } from '../lib/errors';
import { ruleText, translate, type MessageKey } from '../lib/i18n';

const zodLocales: Record<Locale, () => { localeError: z.core.$ZodErrorMap }> = {
  ru: z.locales.ru,
  en: z.locales.en,
  zh: z.locales.zhCN,
};
const english = z.locales.en();

interface ValidationItem {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Zod's own wording in the caller's language; a message a schema set itself is kept. */
function localiseIssue(item: ValidationItem, locale: Locale): string {
  const issue = {
    ...item.params,
    code: item.keyword,
    path: item.instancePath.split('/').filter(Boolean),
    input: undefined,
  } as unknown as z.core.$ZodRawIssue;
  const defaultEnglish = english.localeError(issue);
  const englishText = typeof defaultEnglish === 'string' ? defaultEnglish : defaultEnglish?.message;
  if (item.message && item.message !== englishText) return ruleText(locale, item.message);
  const localised = zodLocales[locale]().localeError(issue);
  return (typeof localised === 'string' ? localised : localised?.message) ?? item.message ?? '';
}

function fieldName(context: string | undefined, instancePath: string): string {
  const path = instancePath.split('/').filter(Boolean).join('.');
  if (context === 'body' || !context) return path || 'body';
  const where = context === 'querystring' ? 'query' : context;
  return path ? `${where}.${path}` : where;
}

const KEY_BY_STATUS: Record<number, MessageKey> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

function send(reply: FastifyReply, body: ErrorEnvelope) {
  return reply.code(body.code).type('application/json; charset=utf-8').send(body);
}

/** An answer with a status its route does not declare: the route's bug, never the caller's. */
class UndeclaredStatus extends Error {
  constructor(readonly status: number, options?: { cause?: unknown }) {
    super(`answer with status ${status}, which the route does not declare`, options);
    this.name = 'UndeclaredStatus';
  }
}

/** Whether the request's route declares `status` among its answers; a route that declares none is not held to any. */
function declares(request: FastifyRequest, status: number): boolean {
  const response = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  if (!response) return true;
  return String(status) in response || `${String(status)[0]}xx` in response || 'default' in response;
}

const internal = (locale: Locale): ErrorEnvelope => ({ code: 500, error: 'INTERNAL', message: translate(locale, 'INTERNAL') });

/** The envelope of a failure, in the caller's language. */
function envelopeOf(error: FastifyError, locale: Locale): ErrorEnvelope {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldError[] = (error.validation as unknown as ValidationItem[]).map((item) => ({
      field: fieldName(error.validationContext, item.instancePath),
      message: localiseIssue(item, locale),
    }));
    const fields = [...new Set(errors.map((e) => e.field))].join(', ');
    return { code: 400, error: 'VALIDATION_FAILED', message: translate(locale, 'VALIDATION_FAILED', { fields }), errors };
  }
  if (error instanceof HttpError) {
    return { code: error.statusCode, error: error.error, message: translate(locale, error.messageKey, error.vars) };
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (status === 503) return { code: 503, error: 'UNAVAILABLE', message: translate(locale, 'UNAVAILABLE') };
  if (status >= 500) return internal(locale);
  const key = KEY_BY_STATUS[status] ?? 'BAD_REQUEST';
  return { code: status, error: key, message: translate(locale, key) };
}

/**
 * An answer off its route's contract (a body its schema refuses, a status it does not declare):
 * logged as the bug it is, and answered as any internal failure, without internals.
 */
function sendOffContract(request: FastifyRequest, reply: FastifyReply, error: Error) {
  const issues = isResponseSerializationError(error) ? error.cause.issues : undefined;
  request.log.error({ err: error, route: `${request.method} ${request.routeOptions.url ?? request.url}`, issues }, 'answer off the contract');
  // Headers the refused answer set that would mislead about this one.
  reply.removeHeader('content-disposition');
  reply.removeHeader('retry-after');
  return send(reply, internal(request.locale));
}

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (isResponseSerializationError(error) || error instanceof UndeclaredStatus) return sendOffContract(request, reply, error);
  const body = envelopeOf(error, request.locale);
  if (!declares(request, body.code)) return sendOffContract(request, reply, new UndeclaredStatus(body.code, { cause: error }));
  if (body.code >= 500) request.log.error({ err: error }, 'request failed');
  if (error instanceof HttpError && body.code === 429 && typeof error.vars.seconds === 'number') {
    reply.header('retry-after', String(error.vars.seconds));
  }
  return send(reply, body);
}

/** The 404 envelope for an address no route serves. */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply) {
  return send(reply, {
    code: 404,
    error: 'ROUTE_NOT_FOUND',
    message: translate(request.locale, 'ROUTE_NOT_FOUND', {
      method: request.method,
      url: request.url.split('?')[0] ?? '',
    }),
  });
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(handleError);
    // A success a route sends with a status it does not declare. Registered before compression,
    // so the error handler starts again from an uncompressed answer. A 500 is the last resort.
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode !== 500 && !declares(request, reply.statusCode)) throw new UndeclaredStatus(reply.statusCode);
      return payload;
    });
  },
  { name: 'errors', dependencies: ['locale'] },
);
