// The page's bridge to the compression worker: started on first use, stopped after a quiet
// minute, so it costs nothing until a seller adds a photo.
import { proxy, wrap, type Remote } from 'comlink';
import type { CompressApi, CompressedPhoto } from '../../contract/capture';

const IDLE_MS = 60_000;
let worker: Worker | null = null;
let remote: Remote<CompressApi> | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;
let busy = 0;

function start(): Remote<CompressApi> {
  if (!remote) {
    worker = new Worker(new URL('../../workers/compress.worker.ts', import.meta.url), { type: 'module', name: 'compress' });
    remote = wrap<CompressApi>(worker);
  }
  return remote;
}

function stopWhenIdle() {
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (busy > 0) return;
    worker?.terminate();
    worker = null;
    remote = null;
  }, IDLE_MS);
}

export class PhotoTooLargeError extends Error {
  constructor() {
    super('TOO_LARGE');
    this.name = 'PhotoTooLargeError';
  }
}

export async function compressPhoto(file: Blob, onProgress?: (percent: number) => void): Promise<CompressedPhoto> {
  busy += 1;
  clearTimeout(idle);
  try {
    return await start().compressImage(file, onProgress ? proxy(onProgress) : undefined);
  } catch (error) {
    if (error instanceof Error && error.message === 'TOO_LARGE') throw new PhotoTooLargeError();
    throw error;
  } finally {
    busy -= 1;
    stopWhenIdle();
  }
}
