// @ts-check
// The thread the studio's networks run on (networks.ts starts it). It keeps one onnxruntime
// session per network it is handed and answers runs in the order they come. Plain JavaScript,
// so the same file runs beside the sources and beside the compiled server.
import { parentPort } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

/** @type {Map<string, import('onnxruntime-node').InferenceSession>} */
const sessions = new Map();
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/**
 * @typedef {{ data: Float32Array; dims: number[] }} Feed
 * @typedef {{ id: number; kind: 'open'; name: string; model: Uint8Array; options: import('onnxruntime-node').InferenceSession.SessionOptions }} Open
 * @typedef {{ id: number; kind: 'run'; name: string; feeds: Record<string, Feed>; fetches: string[] }} Run
 */

/** @param {Open | Run} message */
async function answer(message) {
  if (message.kind === 'open') {
    if (!sessions.has(message.name)) sessions.set(message.name, await ort.InferenceSession.create(message.model, message.options));
    return { outputs: {}, transfer: [] };
  }
  const session = sessions.get(message.name);
  if (!session) throw new Error(`the network ${message.name} was not opened on this thread`);
  /** @type {Record<string, import('onnxruntime-node').Tensor>} */
  const feeds = {};
  for (const [name, feed] of Object.entries(message.feeds)) feeds[name] = new ort.Tensor('float32', feed.data, feed.dims);
  const result = await session.run(feeds, message.fetches);
  /** @type {Record<string, Feed>} */
  const outputs = {};
  /** @type {ArrayBuffer[]} */
  const transfer = [];
  for (const name of message.fetches) {
    const tensor = /** @type {import('onnxruntime-node').Tensor} */ (result[name]);
    // A copy the thread owns, handed over without another copy.
    const data = Float32Array.from(/** @type {Float32Array} */ (tensor.data));
    outputs[name] = { data, dims: [...tensor.dims] };
    transfer.push(data.buffer);
  }
  return { outputs, transfer };
}

port.on('message', (/** @type {Open | Run} */ message) => {
  answer(message).then(
    ({ outputs, transfer }) => port.postMessage({ id: message.id, outputs }, transfer),
    (/** @type {unknown} */ error) => {
      const { name, message: text } = error instanceof Error ? error : { name: 'Error', message: String(error) };
      port.postMessage({ id: message.id, error: { name, message: text } });
    },
  );
});
