// Reads a TensorFlow Lite model (a FlatBuffer laid out by TFLite's schema.fbs) into a plain graph:
// its tensors, with the constant ones' values as float32, and its operators in order. Only what a
// convolutional detector uses is read: the operators tflite-to-onnx.ts converts, float32 and
// float16 tensors.
import { ByteBuffer } from 'flatbuffers';

/** TFLite's BuiltinOperator codes this reader passes on by name. */
const OPERATORS: Record<number, string> = {
  0: 'ADD',
  2: 'CONCATENATION',
  3: 'CONV_2D',
  4: 'DEPTHWISE_CONV_2D',
  6: 'DEQUANTIZE',
  14: 'LOGISTIC',
  22: 'RESHAPE',
};

/** TFLite's TensorType codes. */
const FLOAT32 = 0;
const FLOAT16 = 1;
const INT32 = 2;

export type Activation = 'NONE' | 'RELU' | 'RELU6';
const ACTIVATIONS: Record<number, Activation> = { 0: 'NONE', 1: 'RELU', 3: 'RELU6' };

function activation(code: number): Activation {
  const found = ACTIVATIONS[code];
  if (!found) throw new UnsupportedModel(`fused activation ${code}`);
  return found;
}

export interface LiteTensor {
  name: string;
  shape: number[];
  /** The constant's values (float16 widened), or undefined for a tensor computed at run time. */
  values?: Float32Array | Int32Array;
}

export interface LiteOperator {
  kind: string;
  inputs: number[];
  outputs: number[];
  /** Convolutions: SAME or VALID padding, strides, dilations. */
  same?: boolean;
  stride?: [number, number];
  dilation?: [number, number];
  activation?: Activation;
  /** CONCATENATION's axis. */
  axis?: number;
}

export interface LiteGraph {
  tensors: LiteTensor[];
  inputs: number[];
  outputs: number[];
  operators: LiteOperator[];
}

export class UnsupportedModel extends Error {
  constructor(what: string) {
    super(`the TFLite model uses ${what}, which this reader does not convert`);
    this.name = 'UnsupportedModel';
  }
}

/** IEEE 754 half precision to a number. */
function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** A FlatBuffer table's fields, read by their index in the schema. */
class Table {
  constructor(
    private readonly bb: ByteBuffer,
    readonly at: number,
  ) {}

  private offset(field: number) {
    return this.bb.__offset(this.at, 4 + 2 * field);
  }

  int(field: number, fallback = 0) {
    const o = this.offset(field);
    return o ? this.bb.readInt32(this.at + o) : fallback;
  }

  byte(field: number, fallback = 0) {
    const o = this.offset(field);
    return o ? this.bb.readUint8(this.at + o) : fallback;
  }

  string(field: number) {
    const o = this.offset(field);
    return o ? String(this.bb.__string(this.at + o)) : '';
  }

  table(field: number): Table | null {
    const o = this.offset(field);
    return o ? new Table(this.bb, this.bb.__indirect(this.at + o)) : null;
  }

  tables(field: number): Table[] {
    const o = this.offset(field);
    if (!o) return [];
    const start = this.bb.__vector(this.at + o);
    return Array.from({ length: this.bb.__vector_len(this.at + o) }, (_, k) => new Table(this.bb, this.bb.__indirect(start + 4 * k)));
  }

  ints(field: number): number[] {
    const o = this.offset(field);
    if (!o) return [];
    const start = this.bb.__vector(this.at + o);
    return Array.from({ length: this.bb.__vector_len(this.at + o) }, (_, k) => this.bb.readInt32(start + 4 * k));
  }

  bytes(field: number): Uint8Array | null {
    const o = this.offset(field);
    if (!o) return null;
    const start = this.bb.__vector(this.at + o);
    return this.bb.bytes().subarray(start, start + this.bb.__vector_len(this.at + o));
  }
}

function constant(data: Uint8Array, type: number, name: string): Float32Array | Int32Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (type === FLOAT32) return Float32Array.from({ length: data.length / 4 }, (_, k) => view.getFloat32(4 * k, true));
  if (type === FLOAT16) return Float32Array.from({ length: data.length / 2 }, (_, k) => half(view.getUint16(2 * k, true)));
  if (type === INT32) return Int32Array.from({ length: data.length / 4 }, (_, k) => view.getInt32(4 * k, true));
  throw new UnsupportedModel(`tensor type ${type} (${name})`);
}

function operatorOf(op: Table, kind: string): LiteOperator {
  const found: LiteOperator = { kind, inputs: op.ints(1), outputs: op.ints(2) };
  const options = op.table(4);
  if (kind === 'CONV_2D' || kind === 'DEPTHWISE_CONV_2D') {
    if (!options) throw new UnsupportedModel(`${kind} without options`);
    // Conv2DOptions: padding, stride_w, stride_h, activation, dilation_w, dilation_h; the depthwise
    // options put depth_multiplier before the activation.
    const depthwise = kind === 'DEPTHWISE_CONV_2D' ? 1 : 0;
    found.same = options.byte(0) === 0;
    found.stride = [options.int(2, 1), options.int(1, 1)];
    found.activation = activation(options.byte(3 + depthwise));
    found.dilation = [options.int(5 + depthwise, 1), options.int(4 + depthwise, 1)];
  } else if (kind === 'ADD') {
    found.activation = activation(options?.byte(0) ?? 0);
  } else if (kind === 'CONCATENATION') {
    found.axis = options?.int(0) ?? 0;
    found.activation = activation(options?.byte(1) ?? 0);
  }
  return found;
}

/** The first subgraph of the model in `bytes`. */
export function readTflite(bytes: Uint8Array): LiteGraph {
  const bb = new ByteBuffer(bytes);
  const model = new Table(bb, bb.readInt32(bb.position()) + bb.position());
  const kinds = model.tables(1).map((code) => {
    // builtin_code (field 3) supersedes the deprecated byte (field 0) from schema version 3 on.
    const builtin = Math.max(code.byte(0), code.int(3));
    const kind = OPERATORS[builtin];
    if (!kind) throw new UnsupportedModel(`operator ${builtin}${code.string(1) ? ` (${code.string(1)})` : ''}`);
    return kind;
  });
  const buffers = model.tables(4);
  const graph = model.tables(2)[0];
  if (!graph) throw new UnsupportedModel('no subgraph');
  const tensors = graph.tables(0).map((tensor): LiteTensor => {
    const name = tensor.string(3);
    const data = buffers[tensor.int(2)]?.bytes(0);
    return { name, shape: tensor.ints(0), values: data?.length ? constant(data, tensor.byte(1), name) : undefined };
  });
  const operators = graph.tables(3).map((op) => operatorOf(op, kinds[op.int(0)]!));
  return { tensors, inputs: graph.ints(1), outputs: graph.ints(2), operators };
}
