// The studio's networks (the segmentation, saliency.ts; the shoe detector, detector.ts) run on a
// thread of their own. onnxruntime-node's run() computes on the thread that calls it for the whole
// inference — about 2.5 s for one photo's segmentation — so on the server's main thread every
// request waited while a task was made: a seller's sign-in took more than ten seconds.
//
// The models are made here (read, checked, converted) and handed to the thread, which keeps a
// session for each and answers runs in order. A thread that dies is started again, and each model
// made again, on the next run. The thread holds the process open only while a run is waited for.
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { InferenceSession } from 'onnxruntime-node';
import { decodeOutputs, encodeOutputs, type Feed } from './network-answers';


/** A network: its name on the thread, and how its model and session options are made. */
export interface Network {
  name: string;
  make(): Promise<{ model: Uint8Array; options: InferenceSession.SessionOptions }>;
}

/** An error the thread answered with, under its own name (a model onnxruntime cannot read, say). */
export class NetworkFailed extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

interface Reply {
  id: number;
  outputs?: Record<string, Feed>;
  error?: { name: string; message: string };
}

interface Thread {
  worker: Worker;
  opened: Map<string, Promise<void>>;
  waiting: Map<number, { resolve(reply: Reply): void; reject(error: Error): void }>;
}

/**
 * Beside this module: in server/studio from the sources, in dist-server once compiled. Named, not
 * written into `new URL()`, which Vite would otherwise try to bundle as an asset.
 */
const WORKER_FILE = './networks-worker.mjs';
let thread: Thread | null = null;
let nextId = 0;

function start(): Thread {
  const worker = new Worker(new URL(WORKER_FILE, import.meta.url));
  worker.unref();
  const started: Thread = { worker, opened: new Map(), waiting: new Map() };
  const lost = (error: Error) => {
    if (thread === started) thread = null;
    for (const { reject } of started.waiting.values()) reject(error);
    started.waiting.clear();
  };
  worker.on('message', (reply: Reply) => {
    const waiter = started.waiting.get(reply.id);
    started.waiting.delete(reply.id);
    if (started.waiting.size === 0) worker.unref();
    waiter?.resolve(reply);
  });
  worker.on('error', lost);
  worker.on('exit', (code) => lost(new Error(`the networks' thread stopped (exit code ${code})`)));
  return started;
}

function ask(on: Thread, message: object, transfer: ArrayBuffer[] = []): Promise<Record<string, Feed>> {
  const id = (nextId += 1);
  return new Promise<Reply>((resolve, reject) => {
    on.waiting.set(id, { resolve, reject });
    on.worker.ref();
    on.worker.postMessage({ ...message, id }, transfer);
  }).then((reply) => {
    if (reply.error) throw new NetworkFailed(reply.error.name, reply.error.message);
    return reply.outputs ?? {};
  });
}

/** The thread, with `network`'s session made on it (once per thread). */
async function ready(network: Network): Promise<Thread> {
  const on = (thread ??= start());
  let opened = on.opened.get(network.name);
  if (!opened) {
    opened = network.make().then(async ({ model, options }) => {
      const bytes = model.byteOffset === 0 && model.byteLength === model.buffer.byteLength ? model : model.slice();
      await ask(on, { kind: 'open', name: network.name, model: bytes, options }, [bytes.buffer as ArrayBuffer]);
    });
    on.opened.set(network.name, opened);
    opened.catch(() => on.opened.delete(network.name));
  }
  await opened;
  return on;
}

/** Makes `network`'s session on the thread, if it is not made yet. */
export async function openNetwork(network: Network): Promise<void> {
  await ready(network);
}

/**
 * Where answers are kept across processes, when NETWORK_CACHE_DIR is set: only the test suite sets
 * it, for one run, in which many files send the same photos through the same models and each
 * segmentation takes seconds of both cores. A kept answer is the network's own, for the same
 * network, the same outputs and the same input to the bit. Never set where sellers are served.
 */
function answerFile(network: Network, feeds: Record<string, Feed>, fetches: string[]): string | null {
  const dir = process.env.NETWORK_CACHE_DIR;
  if (!dir) return null;
  const hash = createHash('sha256').update(JSON.stringify([network.name, fetches]));
  for (const [name, feed] of Object.entries(feeds)) {
    hash.update(JSON.stringify([name, feed.dims]));
    hash.update(new Uint8Array(feed.data.buffer, feed.data.byteOffset, feed.data.byteLength));
  }
  return path.join(dir, `${network.name}-${hash.digest('hex')}.bin`);
}

/** Runs `network` on `feeds`; answers the outputs named in `fetches`. The feeds' buffers are handed over. */
export async function runNetwork(network: Network, feeds: Record<string, Feed>, fetches: string[]): Promise<Record<string, Feed>> {
  const file = answerFile(network, feeds, fetches);
  if (file) {
    const kept = await readFile(file).catch(() => null);
    if (kept) return decodeOutputs(kept);
  }
  const on = await ready(network);
  const transfer = Object.values(feeds).map((feed) => feed.data.buffer as ArrayBuffer);
  const outputs = await ask(on, { kind: 'run', name: network.name, feeds, fetches }, transfer);
  if (file) {
    // Written whole under another name first: another process reads it only once complete.
    const partial = `${file}.${process.pid}.${nextId}`;
    await writeFile(partial, encodeOutputs(outputs));
    await rename(partial, file);
  }
  return outputs;
}

/**
 * How long a stop waits for the runs under way (a segmentation takes seconds) before the thread
 * is cut off: less than the server's whole graceful shutdown (10 s).
 */
const STOP_WAIT_MS = 8_000;

/**
 * Stops the thread (the server closing) once the runs under way are answered, or `waitMs` has
 * passed; the next run starts it again. A thread cut off while onnxruntime runs aborts the whole
 * process.
 */
export async function stopNetworks({ waitMs = STOP_WAIT_MS } = {}): Promise<void> {
  const stopping = thread;
  thread = null;
  if (!stopping) return;
  const deadline = performance.now() + waitMs;
  while (stopping.waiting.size > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await stopping.worker.terminate();
}
