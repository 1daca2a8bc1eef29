// @vitest-environment happy-dom
// Downloads through the api client: the zip from our own API with its progress and the session,
// a retry after a passing failure, and a file in storage on another origin fetched with no
// Authorization (it would break a presigned address), or opened in a new tab when it cannot be
// fetched at all.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadOne } from '../../src/content/download';
import { ApiError, apiDownload, DOWNLOAD_ATTEMPTS } from '../../src/lib/api-client';
import { initI18n } from '../../src/lib/i18n';
import { sessionTokenAtom, store } from '../../src/lib/store';
import { answer, answerJson, localServer, type LocalServer } from '../support/local-http';

const ZIP_PARTS = [Buffer.alloc(1000, 1), Buffer.alloc(2000, 2), Buffer.alloc(500, 3)];
const ZIP_BYTES = ZIP_PARTS.reduce((sum, part) => sum + part.byteLength, 0);
const CORS = { 'access-control-allow-origin': '*' };

let ours: LocalServer;
let storage: LocalServer;

/** How many times `path` was asked for (a CORS preflight is not an attempt). */
const attemptsAt = (server: LocalServer, path: string) => server.seen.filter((request) => request.method === 'GET' && request.path === path).length;

beforeAll(async () => {
  ours = await localServer((request, response, seen) => {
    const earlier = seen.filter((one) => one.method === 'GET' && one.path === request.url).length - 1;
    switch (request.url) {
      case '/api/v1/content/assets/download?token=t1': {
        response.writeHead(200, { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="solestudio-20250101-120000.zip"' });
        // In parts, as a zip streams while the server builds it.
        let part = 0;
        const next = () => (part < ZIP_PARTS.length ? response.write(ZIP_PARTS[part++], () => setTimeout(next, 20)) : response.end());
        return next();
      }
      case '/api/v1/content/assets/download?token=busy-once':
        return earlier === 0 ? answer(response, 503, '<html>Service Unavailable</html>') : answer(response, 200, 'zip bytes');
      case '/api/v1/content/assets/download?token=dropped-once':
        if (earlier === 0) return request.socket.destroy();
        return answer(response, 200, 'zip bytes');
      case '/api/v1/content/assets/download?token=always-busy':
        return answer(response, 503, '');
      case '/api/v1/content/assets/download?token=expired':
        return answerJson(response, 403, { code: 403, error: 'DOWNLOAD_LINK_INVALID', message: 'Ссылка для скачивания устарела.' });
      default:
        return answer(response, 404, '');
    }
  });
  storage = await localServer((request, response) => {
    if (request.method === 'OPTIONS') return answer(response, 204, '', { ...CORS, 'access-control-allow-headers': '*' });
    if (request.url === '/files/poster.png?X-Amz-Signature=abc') return answer(response, 200, Buffer.alloc(64, 7), { ...CORS, 'content-type': 'image/png' });
    if (request.url === '/files/expired.png?X-Amz-Signature=abc') {
      return answer(response, 403, '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>', { ...CORS, 'content-type': 'application/xml' });
    }
    if (request.url === '/files/dropped.png') return request.socket.destroy();
    return answer(response, 404, '', CORS);
  });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${ours.origin}/material`);
});

afterAll(async () => {
  await ours.close();
  await storage.close();
});

beforeEach(async () => {
  store.set(sessionTokenAtom, 'token-abc');
  await initI18n('ru');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('apiDownload', () => {
  it('streams our zip with its progress, its name, and the session and language', async () => {
    const progress: number[] = [];
    const { blob, name } = await apiDownload('/api/v1/content/assets/download?token=t1', { onBytes: (received) => progress.push(received) });
    expect(blob.size).toBe(ZIP_BYTES);
    expect(blob.type).toBe('application/zip');
    expect(name).toBe('solestudio-20250101-120000.zip');
    // More than one step, rising, ending at the whole file.
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(ZIP_BYTES);
    const request = ours.seen.find((one) => one.path.endsWith('token=t1'))!;
    expect(request.headers.authorization).toBe('Bearer token-abc');
    expect(request.headers['accept-language']).toBe('ru');
  });

  it('tries again after a 503 and after a dropped connection', async () => {
    expect(await (await apiDownload('/api/v1/content/assets/download?token=busy-once')).blob.text()).toBe('zip bytes');
    expect(attemptsAt(ours, '/api/v1/content/assets/download?token=busy-once')).toBe(2);
    expect(await (await apiDownload('/api/v1/content/assets/download?token=dropped-once')).blob.text()).toBe('zip bytes');
    expect(attemptsAt(ours, '/api/v1/content/assets/download?token=dropped-once')).toBe(2);
  });

  it('gives up after its attempts with the support message', async () => {
    const error = await apiDownload('/api/v1/content/assets/download?token=always-busy').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'HTTP_503', message: 'Внутренняя ошибка сервера. Пожалуйста, обратитесь в поддержку.' });
    expect(attemptsAt(ours, '/api/v1/content/assets/download?token=always-busy')).toBe(DOWNLOAD_ATTEMPTS);
  });

  it('does not repeat a refusal, and shows the server’s message', async () => {
    const error = await apiDownload('/api/v1/content/assets/download?token=expired').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'DOWNLOAD_LINK_INVALID', message: 'Ссылка для скачивания устарела.' });
    expect(attemptsAt(ours, '/api/v1/content/assets/download?token=expired')).toBe(1);
  });

  it('sends nothing of the session to another origin', async () => {
    const { blob } = await apiDownload(`${storage.origin}/files/poster.png?X-Amz-Signature=abc`);
    expect(blob.size).toBe(64);
    expect(storage.seen.length).toBeGreaterThan(0);
    for (const request of storage.seen) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['access-control-request-headers'] ?? '').not.toMatch(/authorization/i);
    }
  });
});

describe('downloadOne', () => {
  const asset = (fileUrl: string) => ({ id: '0123456789abcdef', category: 'POSTER', file_type: 'image/png', file_url: fileUrl });

  it('saves a file fetched from storage under its own name', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    expect(await downloadOne(asset(`${storage.origin}/files/poster.png?X-Amz-Signature=abc`))).toBe('saved');
    expect(saved).toEqual(['solestudio-poster-01234567.png']);
    expect(opened).not.toHaveBeenCalled();
  });

  it('opens the file in a new tab at once when another origin cannot be fetched', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const url = `${storage.origin}/files/dropped.png`;
    expect(await downloadOne(asset(url))).toBe('opened');
    expect(opened).toHaveBeenCalledWith(url, '_blank', 'noopener');
    // Not tried again: failing to reach another origin is most likely its CORS refusing.
    expect(attemptsAt(storage, '/files/dropped.png')).toBe(1);
  });

  it('passes a refusal from storage on as one translated error', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const error = await downloadOne(asset(`${storage.origin}/files/expired.png?X-Amz-Signature=abc`)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'HTTP_403', message: 'Что-то пошло не так. Обновите страницу и попробуйте ещё раз.' });
    expect(opened).not.toHaveBeenCalled();
  });
});
