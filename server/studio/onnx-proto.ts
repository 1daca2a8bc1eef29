// Writes an ONNX model (onnx.proto's ModelProto, protocol buffers' wire format) from a plain graph,
// so onnxruntime can run a network that ships in another format (tflite.ts, tflite-to-onnx.ts).
// Only the messages and fields such a graph needs are written.

export interface OnnxAttribute {
  name: string;
  ints?: number[];
  int?: number;
  float?: number;
  string?: string;
}

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: OnnxAttribute[];
}

export interface OnnxInitializer {
  name: string;
  dims: number[];
  /** float32 values, or int64 ones given as numbers. */
  values: Float32Array | { int64: number[] };
}

export interface OnnxValue {
  name: string;
  dims: number[];
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
}

const IR_VERSION = 8;
const OPSET = 13;
const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_STRING = 3;
const ATTRIBUTE_INTS = 7;

/** One message being written: fields appended in order, each as key then value. */
class Message {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array) {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private varint(value: number) {
    // Two's complement for negatives, as protobuf writes an int64: ten bytes.
    let big = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      let byte = Number(big & 0x7fn);
      big >>= 7n;
      if (big) byte |= 0x80;
      bytes.push(byte);
    } while (big);
    this.push(Uint8Array.from(bytes));
  }

  private key(field: number, wire: number) {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number) {
    this.key(field, 0);
    this.varint(value);
    return this;
  }

  float(field: number, value: number) {
    this.key(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.push(bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array) {
    this.key(field, 2);
    this.varint(value.length);
    this.push(value);
    return this;
  }

  string(field: number, value: string) {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, value: Message) {
    return this.bytes(field, value.done());
  }

  done(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

function attribute({ name, ints, int, float, string }: OnnxAttribute): Message {
  const m = new Message().string(1, name);
  if (ints) {
    for (const value of ints) m.int(8, value);
    return m.int(20, ATTRIBUTE_INTS);
  }
  if (float !== undefined) return m.float(2, float).int(20, ATTRIBUTE_FLOAT);
  if (string !== undefined) return m.string(4, string).int(20, ATTRIBUTE_STRING);
  return m.int(3, int ?? 0).int(20, ATTRIBUTE_INT);
}

function node({ op, inputs, outputs, attributes = [] }: OnnxNode, index: number): Message {
  const m = new Message();
  for (const input of inputs) m.string(1, input);
  for (const output of outputs) m.string(2, output);
  m.string(3, `${op}_${index}`).string(4, op);
  for (const a of attributes) m.message(5, attribute(a));
  return m;
}

function initializer({ name, dims, values }: OnnxInitializer): Message {
  const m = new Message();
  for (const d of dims) m.int(1, d);
  if (values instanceof Float32Array) {
    const raw = new Uint8Array(values.length * 4);
    const view = new DataView(raw.buffer);
    values.forEach((v, k) => view.setFloat32(4 * k, v, true));
    return m.int(2, FLOAT).string(8, name).bytes(9, raw);
  }
  const raw = new Uint8Array(values.int64.length * 8);
  const view = new DataView(raw.buffer);
  values.int64.forEach((v, k) => view.setBigInt64(8 * k, BigInt(v), true));
  return m.int(2, INT64).string(8, name).bytes(9, raw);
}

function value({ name, dims }: OnnxValue): Message {
  const shape = new Message();
  for (const d of dims) shape.message(1, new Message().int(1, d));
  const tensor = new Message().int(1, FLOAT).message(2, shape);
  return new Message().string(1, name).message(2, new Message().message(1, tensor));
}

/** The ONNX model's bytes, ready for `InferenceSession.create`. */
export function onnxModel(graph: OnnxGraph, name: string): Uint8Array {
  const g = new Message();
  graph.nodes.forEach((n, k) => g.message(1, node(n, k)));
  g.string(2, name);
  for (const i of graph.initializers) g.message(5, initializer(i));
  for (const i of graph.inputs) g.message(11, value(i));
  for (const o of graph.outputs) g.message(12, value(o));
  return new Message()
    .int(1, IR_VERSION)
    .string(2, 'solestudio')
    .message(7, g)
    .message(8, new Message().string(1, '').int(2, OPSET))
    .done();
}
