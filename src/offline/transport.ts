// The outbox's line to the server, the same in the page and in the service worker (which has
// neither the page's api client nor its store): fetch with the session's bearer token and the
// seller's language, the envelope's message on failure, 60 s for the bytes (SPEC §7). In the page
// the bytes go through XMLHttpRequest, whose upload events give the slot its progress; fetch has
// none, so the service worker (which has no XMLHttpRequest) sends them without.
import { safeParse } from 'zod/v4/core';
import { assetSchema } from '../../contract/assets';
import { generateResultSchema } from '../../contract/content';
import { errorEnvelopeSchema, okEnvelope } from '../../contract/envelope';
import { uploadTicketSchema } from '../../contract/materials';
import type { DeleteJob, GenerateJob, PhotoRecord, UploadJob } from './records';
import type { UploadTransport } from './upload-transport';
import { TransportError } from './transport-error';

export const UPLOAD_TIMEOUT_MS = 60_000;
const CALL_TIMEOUT_MS = 10_000;

export interface TransportOptions {
  /** Where the API is; relative URLs from the server resolve against it. */
  origin: string;
  token: () => Promise<string | null>;
  locale: () => string;
  fetch?: typeof fetch;
}

const uploadAnswer = okEnvelope(uploadTicketSchema);
const generateAnswer = okEnvelope(generateResultSchema);
const createdAnswer = okEnvelope(assetSchema.pick({ id: true }).array());

/** The failure as the error envelope words it, or its bare status when the body is something else. */
function messageOf(status: number, body: unknown): TransportError {
  const parsed = safeParse(errorEnvelopeSchema, body);
  return new TransportError(status, parsed.success ? parsed.data.message : `HTTP ${status}`);
}

/** A success whose body is not what the contract says is a bad gateway, retried like one. */
function answerOf<T>(parsed: { success: true; data: T } | { success: false }): T {
  if (!parsed.success) throw new TransportError(502, 'invalid answer');
  return parsed.data;
}

async function failure(response: Response): Promise<TransportError> {
  return messageOf(response.status, await response.json().catch(() => null));
}

/** PUT with upload progress (page only). */
function putWithProgress(url: URL, photo: PhotoRecord, locale: string, progress: (sent: number, total: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.timeout = UPLOAD_TIMEOUT_MS;
    request.responseType = 'json';
    request.setRequestHeader('content-type', photo.mime);
    request.setRequestHeader('accept-language', locale);
    request.upload.onprogress = (event) => progress(event.loaded, event.lengthComputable ? event.total : photo.bytes.byteLength);
    // The last byte has gone: said once more, whatever the last progress event counted.
    request.upload.onload = () => progress(photo.bytes.byteLength, photo.bytes.byteLength);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve();
      else reject(messageOf(request.status, request.response));
    };
    request.onerror = () => reject(new TransportError(0, 'network'));
    request.ontimeout = () => reject(new TransportError(0, 'timeout'));
    request.send(photo.bytes);
  });
}

export function fetchTransport({ origin, token, locale, fetch: custom }: TransportOptions): UploadTransport {
  const send = custom ?? fetch;
  const withProgress = !custom && typeof XMLHttpRequest !== 'undefined';
  const call = async (url: string, init: RequestInit, timeoutMs: number) => {
    try {
      return await send(new URL(url, origin), { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new TransportError(0, error instanceof Error ? error.message : 'network');
    }
  };
  /** A call to the API with the session and the language. */
  const api = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const bearer = await token();
    if (!bearer) throw new TransportError(401, 'not signed in');
    const response = await call(
      path,
      { method, headers: { accept: 'application/json', 'accept-language': locale(), authorization: `Bearer ${bearer}`, ...headers }, body },
      CALL_TIMEOUT_MS,
    );
    if (!response.ok) throw await failure(response);
    const answer: unknown = await response.json().catch(() => null);
    return answer;
  };
  /** A JSON POST with the job's id as Idempotency-Key. */
  const post = (path: string, key: string, body: unknown) =>
    api('POST', path, { 'content-type': 'application/json', 'idempotency-key': key }, JSON.stringify(body));
  /** POST /materials/upload of a stored photo under `key` (the file named `name`), as the answer says it went. */
  const registration = async (key: string, photo: PhotoRecord, name: string, description: string) => {
    const body = await post('/api/v1/materials/upload', key, {
      file_name: `${name}.${photo.mime === 'image/png' ? 'png' : 'jpg'}`,
      file_type: photo.mime,
      file_size: photo.bytes.byteLength,
      description,
    });
    const { data } = answerOf(safeParse(uploadAnswer, body));
    return { materialId: data.material_id, uploadUrl: data.presigned_url, fileKey: data.file_key, publicUrl: data.public_url };
  };
  return {
    tellsProgress: withProgress,
    async register(job: UploadJob, photo: PhotoRecord) {
      const { materialId, uploadUrl } = await registration(job.id, photo, job.view, JSON.stringify({ view: job.view }));
      return { materialId, uploadUrl };
    },
    async generate(job: GenerateJob, materialIds: string[]) {
      const body = await post('/api/v1/content/generate', job.id, {
        content_config: job.task.contentConfig,
        material_ids: materialIds,
      });
      const { data } = answerOf(safeParse(generateAnswer, body));
      return { taskId: data.id };
    },
    registerFile: (key, photo, description) => registration(key, photo, description === 'image edit (logo)' ? 'logo' : 'edit', description),
    async createAssets(key, items) {
      const body = await post('/api/v1/content/assets/batch-create', key, items);
      const { data } = answerOf(safeParse(createdAnswer, body));
      return data.map((asset) => asset.id);
    },
    async remove(job: DeleteJob) {
      await api('DELETE', job.materialId ? `/api/v1/materials/${encodeURIComponent(job.materialId)}` : `/api/v1/materials/by-key/${encodeURIComponent(job.uploadKey ?? '')}`);
    },
    async put(url: string, photo: PhotoRecord, progress?: (sent: number, total: number) => void) {
      if (withProgress && progress) return putWithProgress(new URL(url, origin), photo, locale(), progress);
      const response = await call(
        url,
        { method: 'PUT', headers: { 'content-type': photo.mime, 'accept-language': locale() }, body: photo.bytes },
        UPLOAD_TIMEOUT_MS,
      );
      if (!response.ok) throw await failure(response);
    },
  };
}
