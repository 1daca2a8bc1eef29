// Every failure leaves the server as the error envelope, in the caller's language: validation
// errors name their fields, unknown /api routes answer 404, and a 5xx never shows internals.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
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

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const locale = request.locale;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldError[] = (error.validation as unknown as ValidationItem[]).map((item) => ({
      field: fieldName(error.validationContext, item.instancePath),
      message: localiseIssue(item, locale),
    }));
    const fields = [...new Set(errors.map((e) => e.field))].join(', ');
    return send(reply, {
      code: 400,
      error: 'VALIDATION_FAILED',
      message: translate(locale, 'VALIDATION_FAILED', { fields }),
      errors,
    });
  }
  if (error instanceof HttpError) {
    if (error.statusCode === 429 && typeof error.vars.seconds === 'number') {
      reply.header('retry-after', String(error.vars.seconds));
    }
    return send(reply, {
      code: error.statusCode,
      error: error.error,
      message: translate(locale, error.messageKey, error.vars),
    });
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    const unavailable = status === 503;
    return send(reply, {
      code: status,
      error: unavailable ? 'UNAVAILABLE' : 'INTERNAL',
      message: translate(locale, unavailable ? 'UNAVAILABLE' : 'INTERNAL'),
    });
  }
  const key = KEY_BY_STATUS[status] ?? 'BAD_REQUEST';
  return send(reply, { code: status, error: key, message: translate(locale, key) });
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
  },
  { name: 'errors', dependencies: ['locale'] },
);
