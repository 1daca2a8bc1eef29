// The only module that calls fetch. Every call sends Accept-Language and, when signed in, the
// bearer token; answers are unwrapped from the envelope and failures become ApiError with a
// message in the seller's language (SPEC §7, §8).
import type * as z from 'zod/v4/core';
import { config as zodConfig, safeParse } from 'zod/v4/core';
import { isSuccessCode, type FieldErrorShape as FieldError } from '../../contract/status';
import { currentLocale, i18next } from './i18n';
import { clearSessionAtom, sessionTokenAtom, signedOutReasonAtom, store } from './store';

// Every answer the page parses goes through here. zod would otherwise probe for eval (to compile
// faster parsers), which the Content-Security-Policy forbids.
zodConfig({ jitless: true });

export const HTTP_TIMEOUT_MS = 10_000;

export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when the server was not reached. */
    readonly status: number,
    /** The envelope's machine name, or NETWORK / TIMEOUT / INVALID_RESPONSE. */
    readonly code: string,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    /** From Retry-After on a 429: seconds until the server accepts the call again. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions<S extends z.$ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Validates the whole response body (a zod or zod/mini schema). */
  schema: S;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

function withQuery(path: string, query: RequestOptions<z.$ZodType>['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function send(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal) {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (timeout.aborted) throw new ApiError(0, 'TIMEOUT', i18next.t('common.errors.timeout'));
    throw new ApiError(0, 'NETWORK', i18next.t('common.errors.network'));
  }
}

/** Calls the SoleStudio API and returns the parsed body. */
export async function apiRequest<S extends z.$ZodType>(
  path: string,
  { method = 'GET', body, schema, query, headers, timeoutMs = HTTP_TIMEOUT_MS, signal }: RequestOptions<S>,
): Promise<z.output<S>> {
  const token = store.get(sessionTokenAtom);
  const response = await send(
    withQuery(path, query),
    {
      method,
      headers: {
        Accept: 'application/json',
        'Accept-Language': currentLocale(),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    },
    timeoutMs,
    signal,
  );

  const payload: unknown = await response.json().catch(() => undefined);
  const envelope = (payload ?? {}) as { code?: unknown; error?: unknown; message?: unknown; errors?: unknown };

  if (response.status === 401) {
    store.set(clearSessionAtom);
    if (envelope.error === 'SESSION_REVOKED') store.set(signedOutReasonAtom, 'password_changed');
  }
  if (!response.ok || (envelope.code !== undefined && !isSuccessCode(envelope.code))) {
    const message =
      typeof envelope.message === 'string' && envelope.message && response.status < 500
        ? envelope.message
        : i18next.t('common.errors.internal_server_error');
    throw new ApiError(
      response.status,
      typeof envelope.error === 'string' ? envelope.error : `HTTP_${response.status}`,
      message,
      Array.isArray(envelope.errors) ? (envelope.errors as FieldError[]) : [],
      Number(response.headers.get('retry-after')) || undefined,
    );
  }

  const parsed = safeParse(schema, payload);
  if (!parsed.success) {
    throw new ApiError(response.status, 'INVALID_RESPONSE', i18next.t('common.errors.internal_server_error'));
  }
  return parsed.data;
}

/** Fetches a static JSON file of this site, bypassing every cache when asked (version.json). */
export async function fetchStaticJson<S extends z.$ZodType>(
  url: string,
  schema: S,
  { cacheBust = false, timeoutMs = HTTP_TIMEOUT_MS }: { cacheBust?: boolean; timeoutMs?: number } = {},
): Promise<z.output<S>> {
  const target = cacheBust ? withQuery(url, { t: Date.now() }) : url;
  const response = await send(target, { cache: cacheBust ? 'no-store' : 'default' }, timeoutMs);
  if (!response.ok) {
    throw new ApiError(response.status, `HTTP_${response.status}`, i18next.t('common.errors.website_error'));
  }
  const parsed = safeParse(schema, await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiError(response.status, 'INVALID_RESPONSE', i18next.t('common.errors.website_error'));
  }
  return parsed.data;
}
