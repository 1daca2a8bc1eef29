// A network's outputs as one buffer and back, for answers kept on disk (networks.ts): a header
// of the outputs' names and shapes, then each output's floats in turn.

/** A tensor of floats: a network's input or one of its outputs. */
export interface Feed {
  data: Float32Array;
  dims: readonly number[];
}

export function encodeOutputs(outputs: Record<string, Feed>): Buffer {
  const names = Object.keys(outputs);
  const header = Buffer.from(JSON.stringify(names.map((name) => [name, outputs[name]!.dims, outputs[name]!.data.length])));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const bodies = names.map((name) => {
    const data = outputs[name]!.data;
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  });
  return Buffer.concat([length, header, ...bodies]);
}

export function decodeOutputs(bytes: Buffer): Record<string, Feed> {
  const headerLength = bytes.readUInt32LE(0);
  const entries = JSON.parse(bytes.subarray(4, 4 + headerLength).toString()) as [string, number[], number][];
  const outputs: Record<string, Feed> = {};
  let at = 4 + headerLength;
  for (const [name, dims, count] of entries) {
    // Copied out, so each output owns an aligned buffer of its own, as the thread's answers do.
    const data = new Float32Array(count);
    Buffer.from(data.buffer).set(bytes.subarray(at, at + count * 4));
    outputs[name] = { data, dims };
    at += count * 4;
  }
  return outputs;
}
