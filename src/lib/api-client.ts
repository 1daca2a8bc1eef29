// The only module in the page that calls fetch. Every call to our API sends Accept-Language and,
// when signed in, the bearer token; every answer is parsed through a contract schema (the call's
// own, or the error envelope), so whatever the server or a proxy in front of it answers becomes
// either the typed body or one ApiError with a message in the seller's language (SPEC §7, §8).
import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { retryDelayMs, type Backoff } from '../../contract/backoff';
import { errorEnvelopeSchema } from '../../contract/envelope';
import { isSuccessCode, type FieldErrorShape as FieldError } from '../../contract/status';
import { currentLocale, i18next } from './i18n';
import { clearSessionAtom, sessionTokenAtom, signedOutReasonAtom, store } from './store';

export const HTTP_TIMEOUT_MS = 10_000;
/** A download is tried this many times when the network or the server fails on the way. */
export const DOWNLOAD_ATTEMPTS = 3;
const DOWNLOAD_BACKOFF: Backoff = { firstMs: 500, longestMs: 4_000, jitter: 0.2 };

export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when the server was not reached. */
    readonly status: number,
    /** The envelope's machine name; NETWORK / TIMEOUT when nothing came back; HTTP_{status} for
     * a refusal that is not our envelope; INVALID_RESPONSE for a success off the contract. */
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

const ERROR_TEXTS = {
  internal_server_error: 'common.errors.internal_server_error',
  website_error: 'common.errors.website_error',
  network: 'common.errors.network',
  timeout: 'common.errors.timeout',
} as const;
const t = (key: keyof typeof ERROR_TEXTS) => i18next.t(ERROR_TEXTS[key]);

/**
 * Runs one exchange: `fetch`, then `read` of the answer. The caller's own abort passes through;
 * an answer that stops coming for `timeoutMs` is TIMEOUT; any other failure to fetch is NETWORK.
 * `stillComing` restarts the clock (a long download is slow, not stalled).
 */
async function exchange<T>(
  url: string,
  init: RequestInit,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
  read: (response: Response, stillComing: () => void) => Promise<T>,
): Promise<T> {
  const stalled = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stillComing = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stalled.abort(), timeoutMs);
  };
  stillComing();
  try {
    const response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, stalled.signal]) : stalled.signal });
    return await read(response, stillComing);
  } catch (error) {
    if (error instanceof ApiError || signal?.aborted) throw error;
    if (stalled.signal.aborted) throw new ApiError(0, 'TIMEOUT', t('timeout'));
    throw new ApiError(0, 'NETWORK', t('network'));
  } finally {
    clearTimeout(timer);
  }
}

/** The body as JSON; undefined when it is empty or not JSON (a proxy's HTML page). */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The body's `code`, when it is an object that has one. */
function bodyCode(payload: unknown): unknown {
  return typeof payload === 'object' && payload !== null && 'code' in payload ? payload.code : undefined;
}

/**
 * What a refusal, or an answer off the contract, becomes. Our error envelope gives its stable
 * name and, below 500, its message (already in the seller's language); anything else (an empty
 * body, a proxy's page, an envelope missing fields) gets a message of our own.
 */
function failureOf(response: Response, payload: unknown): ApiError {
  const retryAfterS = Number(response.headers.get('retry-after')) || undefined;
  const envelope = safeParse(errorEnvelopeSchema, payload);
  if (envelope.success) {
    const { error, message, errors = [] } = envelope.data;
    const shown = response.status < 500 && message ? message : t('internal_server_error');
    return new ApiError(response.status, error, shown, errors, retryAfterS);
  }
  if (response.ok) return new ApiError(response.status, 'INVALID_RESPONSE', t('internal_server_error'));
  const refused = response.status >= 400 && response.status < 500;
  return new ApiError(response.status, `HTTP_${response.status}`, t(refused ? 'website_error' : 'internal_server_error'), [], retryAfterS);
}

/** Language and, when signed in, the session: what our own API is sent. */
function ourHeaders(): Record<string, string> {
  const token = store.get(sessionTokenAtom);
  return { 'Accept-Language': currentLocale(), ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

/** Calls the SoleStudio API and returns the parsed body. */
export async function apiRequest<S extends z.$ZodType>(
  path: string,
  { method = 'GET', body, schema, query, headers, timeoutMs = HTTP_TIMEOUT_MS, signal }: RequestOptions<S>,
): Promise<z.output<S>> {
  const sentToken = store.get(sessionTokenAtom);
  const init: RequestInit = {
    method,
    headers: {
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...ourHeaders(),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  };
  const { response, payload } = await exchange(withQuery(path, query), init, { timeoutMs, signal }, async (response) => ({
    response,
    payload: await jsonOf(response),
  }));

  const code = bodyCode(payload);
  if (!response.ok || (code !== undefined && !isSuccessCode(code))) {
    const failure = failureOf(response, payload);
    // A late refusal of an earlier session (signed out, then in again meanwhile) ends nothing.
    if (response.status === 401 && store.get(sessionTokenAtom) === sentToken) {
      store.set(clearSessionAtom);
      if (failure.code === 'SESSION_REVOKED') store.set(signedOutReasonAtom, 'password_changed');
    }
    throw failure;
  }
  const parsed = safeParse(schema, payload);
  if (!parsed.success) throw failureOf(response, payload);
  return parsed.data;
}

/** Fetches a static JSON file of this site, bypassing every cache when asked (version.json). */
export async function fetchStaticJson<S extends z.$ZodType>(
  url: string,
  schema: S,
  { cacheBust = false, timeoutMs = HTTP_TIMEOUT_MS }: { cacheBust?: boolean; timeoutMs?: number } = {},
): Promise<z.output<S>> {
  const target = cacheBust ? withQuery(url, { t: Date.now() }) : url;
  const { response, payload } = await exchange(target, { cache: cacheBust ? 'no-store' : 'default' }, { timeoutMs }, async (response) => ({
    response,
    payload: await jsonOf(response),
  }));
  const parsed = response.ok ? safeParse(schema, payload) : null;
  if (!parsed?.success) {
    throw new ApiError(response.status, response.ok ? 'INVALID_RESPONSE' : `HTTP_${response.status}`, t('website_error'));
  }
  return parsed.data;
}

export interface DownloadOptions {
  /** Bytes received so far, each time more arrive. */
  onBytes?: (received: number) => void;
  signal?: AbortSignal;
}

export interface Downloaded {
  blob: Blob;
  /** The name a Content-Disposition header gives, if any. */
  name: string | null;
}

/** The file name a Content-Disposition header gives, if any. */
function dispositionName(header: string | null): string | null {
  const match = header?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return match ? decodeURIComponent(match[1]!) : null;
}

/** Waits `ms`, or less when the caller gives up. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * GETs a file (a zip the server builds, or one result in storage) with its progress. Our own
 * API's paths get the language and the session; any other address (a presigned storage URL)
 * gets no header at all, which would break its signature or its CORS. A GET is safe to repeat:
 * a network failure or a 5xx is tried again with backoff, except that failing to reach another
 * origin is left to the caller at once (it is most likely that origin's CORS refusing, which no
 * retry changes).
 */
export async function apiDownload(url: string, { onBytes, signal }: DownloadOptions = {}): Promise<Downloaded> {
  const target = new URL(url, location.href);
  const ourOrigin = target.origin === location.origin;
  const headers = ourOrigin && target.pathname.startsWith('/api/') ? ourHeaders() : undefined;
  const once = () =>
    exchange(target.href, { headers }, { timeoutMs: HTTP_TIMEOUT_MS, signal }, async (response, stillComing) => {
      if (!response.ok) throw failureOf(response, await jsonOf(response));
      const chunks: Uint8Array[] = [];
      let received = 0;
      const reader = response.body?.getReader();
      for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
        stillComing();
        chunks.push(chunk.value);
        received += chunk.value.byteLength;
        onBytes?.(received);
      }
      const type = response.headers.get('content-type') ?? 'application/octet-stream';
      return { blob: new Blob(chunks as BlobPart[], { type }), name: dispositionName(response.headers.get('content-disposition')) };
    });
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await once();
    } catch (error) {
      const passing = error instanceof ApiError && (error.status >= 500 || (error.status === 0 && ourOrigin));
      if (!passing || attempt >= DOWNLOAD_ATTEMPTS) throw error;
      await pause(retryDelayMs(attempt, DOWNLOAD_BACKOFF), signal);
      signal?.throwIfAborted();
    }
  }
}
