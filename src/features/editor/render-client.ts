// The page's bridge to the edit-render worker: started on the first save, stopped after a quiet
// minute or when a render is aborted, and never left hanging — a worker that fails to load or
// dies rejects every render it holds. Each render is recorded as a performance measure
// ('edit-render', the worker's timings in its detail) for the bench and the browser's profiler.
import { wrap, type Remote } from 'comlink';
import { renderFailureOf, type EditRenderApi, type EditRenderFailure, type RenderedEdit, type RenderRequest } from '../../../contract/edit-render';
import { editorFontFaces } from './fonts';

const IDLE_MS = 60_000;

export class EditRenderError extends Error {
  constructor(
    readonly code: EditRenderFailure,
    message: string,
  ) {
    super(message);
    this.name = 'EditRenderError';
  }
}

interface Session {
  remote: Remote<EditRenderApi>;
  /** Rejects once the worker is gone: failed, crashed, stopped or aborted. */
  ended: Promise<never>;
  end(reason: Error): void;
}

let session: Session | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;
let busy = 0;

function start(): Session {
  if (session) return session;
  const worker = new Worker(new URL('../../../workers/edit-render.worker.ts', import.meta.url), { type: 'module', name: 'edit-render' });
  let reject!: (reason: Error) => void;
  const ended = new Promise<never>((_, fail) => {
    reject = fail;
  });
  ended.catch(() => {});
  const started: Session = {
    remote: wrap<EditRenderApi>(worker),
    ended,
    end(reason) {
      if (session === started) session = null;
      worker.terminate();
      reject(reason);
    },
  };
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    started.end(new EditRenderError('WORKER_FAILED', 'the edit-render worker could not run'));
  });
  session = started;
  return started;
}

function stopWhenIdle() {
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (busy === 0) session?.end(new EditRenderError('WORKER_FAILED', 'the edit-render worker was stopped'));
  }, IDLE_MS);
}

function asRenderError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof EditRenderError || error.name === 'AbortError') return error;
  const code = renderFailureOf(error.message);
  return code ? new EditRenderError(code, error.message.slice(code.length + 1).trim()) : error;
}

/**
 * The edited picture at full resolution (crop.width × crop.height), encoded in the worker with
 * the fonts its texts need. Rejects with an EditRenderError (its `code` says why), or an
 * AbortError when `signal` aborts (which stops the worker).
 */
export async function renderEdit(request: Omit<RenderRequest, 'fonts'>, { signal }: { signal?: AbortSignal } = {}): Promise<RenderedEdit> {
  signal?.throwIfAborted();
  busy += 1;
  clearTimeout(idle);
  const onAbort = () => session?.end(signal?.reason instanceof Error ? signal.reason : new DOMException('The render was aborted', 'AbortError'));
  try {
    const fonts = await editorFontFaces(request.edit.layers).catch((error: unknown) => {
      throw new EditRenderError('FONTS_UNAVAILABLE', `the font list could not be loaded (${error instanceof Error ? error.message : String(error)})`);
    });
    signal?.throwIfAborted();
    const { remote, ended } = start();
    signal?.addEventListener('abort', onAbort, { once: true });
    const startedAt = performance.now();
    const rendered = await Promise.race([remote.render({ ...request, fonts }), ended]);
    performance.measure('edit-render', {
      start: startedAt,
      end: performance.now(),
      detail: { ...rendered.timings, width: rendered.width, height: rendered.height, bytes: rendered.bytes.byteLength, mime: rendered.mime },
    });
    return rendered;
  } catch (error) {
    throw asRenderError(error);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    busy -= 1;
    stopWhenIdle();
  }
}
