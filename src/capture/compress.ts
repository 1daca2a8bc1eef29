// The page's bridge to the compression worker: started on first use, stopped after a quiet
// minute, so it costs nothing until a seller adds a photo.
import { proxy, wrap, type Remote } from 'comlink';
import type { CompressApi, CompressedPhoto } from '../../contract/capture';

const IDLE_MS = 60_000;
let worker: Worker | null = null;
let remote: Remote<CompressApi> | null = null;
/** Settles when the worker fails to load or crashes, so no call waits for it forever. */
let broken: Promise<never> | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;
let busy = 0;

function stop() {
  worker?.terminate();
  worker = null;
  remote = null;
  broken = null;
}

function start(): { remote: Remote<CompressApi>; broken: Promise<never> } {
  if (!remote || !broken) {
    const started = new Worker(new URL('../../workers/compress.worker.ts', import.meta.url), { type: 'module', name: 'compress' });
    worker = started;
    remote = wrap<CompressApi>(started);
    broken = new Promise<never>((_, reject) => {
      started.addEventListener('error', (event) => {
        event.preventDefault();
        if (worker === started) stop();
        reject(new Error('the compression worker could not run'));
      });
    });
    broken.catch(() => {});
  }
  return { remote, broken };
}

function stopWhenIdle() {
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (busy > 0) return;
    stop();
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
    const { remote: api, broken: failed } = start();
    return await Promise.race([api.compressImage(file, onProgress ? proxy(onProgress) : undefined), failed]);
  } catch (error) {
    if (error instanceof Error && error.message === 'TOO_LARGE') throw new PhotoTooLargeError();
    throw error;
  } finally {
    busy -= 1;
    stopWhenIdle();
  }
}
