// The outbox's line to the server, the same in the page and in the service worker (which has
// neither the page's api client nor its store): fetch with the session's bearer token and the
// seller's language, the envelope's message on failure, 60 s for the bytes (SPEC §7).
import type { OutboxJob, PhotoRecord } from './db';
import { TransportError, type UploadTransport } from './outbox';

export const UPLOAD_TIMEOUT_MS = 60_000;
const CALL_TIMEOUT_MS = 10_000;

export interface TransportOptions {
  /** Where the API is; relative URLs from the server resolve against it. */
  origin: string;
  token: () => Promise<string | null>;
  locale: () => string;
  fetch?: typeof fetch;
}

async function failure(response: Response): Promise<TransportError> {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  const message = typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`;
  return new TransportError(response.status, message);
}

export function fetchTransport({ origin, token, locale, fetch: send = fetch }: TransportOptions): UploadTransport {
  const call = async (url: string, init: RequestInit, timeoutMs: number) => {
    try {
      return await send(new URL(url, origin), { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new TransportError(0, error instanceof Error ? error.message : 'network');
    }
  };
  return {
    async register(job: OutboxJob, photo: PhotoRecord) {
      const bearer = await token();
      if (!bearer) throw new TransportError(401, 'not signed in');
      const response = await call(
        '/api/v1/materials/upload',
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'accept-language': locale(),
            authorization: `Bearer ${bearer}`,
            'idempotency-key': job.id,
          },
          body: JSON.stringify({
            file_name: `${job.view}.${photo.mime === 'image/png' ? 'png' : 'jpg'}`,
            file_type: photo.mime,
            file_size: photo.bytes.byteLength,
            description: JSON.stringify({ view: job.view }),
          }),
        },
        CALL_TIMEOUT_MS,
      );
      if (!response.ok) throw await failure(response);
      const body = (await response.json()) as { data?: { material_id?: unknown; presigned_url?: unknown } };
      const materialId = body.data?.material_id;
      const uploadUrl = body.data?.presigned_url;
      if (typeof materialId !== 'string' || typeof uploadUrl !== 'string') throw new TransportError(502, 'invalid answer');
      return { materialId, uploadUrl };
    },
    async put(url: string, photo: PhotoRecord) {
      const response = await call(
        url,
        { method: 'PUT', headers: { 'content-type': photo.mime, 'accept-language': locale() }, body: photo.bytes },
        UPLOAD_TIMEOUT_MS,
      );
      if (!response.ok) throw await failure(response);
    },
  };
}
