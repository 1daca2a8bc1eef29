// A TFLite graph (tflite.ts) as an ONNX one (onnx-proto.ts). TFLite keeps images as NHWC, ONNX's
// convolutions take NCHW: the network's input is taken as NCHW and images stay so; a tensor is put
// back in TFLite's order only where its layout starts to matter as numbers (before a RESHAPE), and
// from there on it is plain. Constants are folded: DEQUANTIZE's float16 weights are float32 already.
import type { OnnxGraph, OnnxNode } from './onnx-proto';
import { UnsupportedModel, type Activation, type LiteGraph, type LiteOperator } from './tflite';

/** TFLite's NHWC axes as NCHW ones. */
const NCHW_AXIS = [0, 2, 3, 1];

/** An [O, H, W, I] (or depthwise [1, H, W, O]) TFLite kernel as ONNX's [O, I, H, W]. */
function kernel(values: Float32Array, [o, h, w, i]: number[], depthwise: boolean): { values: Float32Array; dims: number[] } {
  if (depthwise) {
    // [1, H, W, C]: one 1 × H × W filter per channel.
    const channels = i!;
    const out = new Float32Array(values.length);
    for (let y = 0; y < h!; y += 1) for (let x = 0; x < w!; x += 1) for (let c = 0; c < channels; c += 1) out[(c * h! + y) * w! + x] = values[(y * w! + x) * channels + c]!;
    return { values: out, dims: [channels, 1, h!, w!] };
  }
  const out = new Float32Array(values.length);
  for (let a = 0; a < o!; a += 1)
    for (let y = 0; y < h!; y += 1) for (let x = 0; x < w!; x += 1) for (let c = 0; c < i!; c += 1) out[((a * i! + c) * h! + y) * w! + x] = values[((a * h! + y) * w! + x) * i! + c]!;
  return { values: out, dims: [o!, i!, h!, w!] };
}

/**
 * The graph for onnxruntime. `name(k)` is tensor k's ONNX name; images (4-D tensors computed by a
 * convolution or an addition of them) are NCHW, the model's input too.
 */
export function tfliteToOnnx(lite: LiteGraph): OnnxGraph {
  const graph: OnnxGraph = { nodes: [], initializers: [], inputs: [], outputs: [] };
  const name = (k: number) => `t${k}`;
  const folded = new Map<number, Float32Array | Int32Array>();
  const image = new Set<number>();
  const valueOf = (k: number) => folded.get(k) ?? lite.tensors[k]!.values;
  let temporary = 0;
  const add = (node: OnnxNode) => graph.nodes.push(node);
  const constant = (values: Float32Array, dims: number[]) => {
    const tensor = `c${(temporary += 1)}`;
    graph.initializers.push({ name: tensor, dims, values });
    return tensor;
  };
  const activate = (raw: string, out: string, activation: Activation | undefined) => {
    if (activation === 'RELU6') add({ op: 'Clip', inputs: [raw, constant(Float32Array.of(0), []), constant(Float32Array.of(6), [])], outputs: [out] });
    else if (activation === 'RELU') add({ op: 'Relu', inputs: [raw], outputs: [out] });
    else add({ op: 'Identity', inputs: [raw], outputs: [out] });
  };

  for (const k of lite.inputs) {
    const [n, h, w, c] = lite.tensors[k]!.shape;
    graph.inputs.push({ name: name(k), dims: [n!, c!, h!, w!] });
    image.add(k);
  }
  const convolution = (op: LiteOperator) => {
    const [input, weights, bias] = op.inputs as [number, number, number];
    const depthwise = op.kind === 'DEPTHWISE_CONV_2D';
    const w = valueOf(weights);
    if (!(w instanceof Float32Array)) throw new UnsupportedModel(`${op.kind} with weights computed at run time`);
    const k = kernel(w, lite.tensors[weights]!.shape, depthwise);
    const channels = lite.tensors[input]!.shape[3]!;
    if (depthwise && k.dims[0] !== channels) throw new UnsupportedModel('a depth multiplier other than 1');
    const inputs = [name(input), constant(k.values, k.dims)];
    const b = bias >= 0 ? valueOf(bias) : undefined;
    if (b instanceof Float32Array) inputs.push(constant(b, [b.length]));
    const raw = `r${(temporary += 1)}`;
    add({
      op: 'Conv',
      inputs,
      outputs: [raw],
      attributes: [
        { name: 'kernel_shape', ints: k.dims.slice(2) },
        { name: 'strides', ints: op.stride! },
        { name: 'dilations', ints: op.dilation! },
        { name: 'group', int: depthwise ? channels : 1 },
        { name: 'auto_pad', string: op.same ? 'SAME_UPPER' : 'VALID' },
      ],
    });
    activate(raw, name(op.outputs[0]!), op.activation);
    image.add(op.outputs[0]!);
  };

  for (const op of lite.operators) {
    const out = op.outputs[0]!;
    switch (op.kind) {
      case 'DEQUANTIZE': {
        const values = valueOf(op.inputs[0]!);
        if (!values) throw new UnsupportedModel('DEQUANTIZE of a tensor computed at run time');
        folded.set(out, values);
        break;
      }
      case 'CONV_2D':
      case 'DEPTHWISE_CONV_2D':
        convolution(op);
        break;
      case 'ADD': {
        const [a, b] = op.inputs as [number, number];
        if (!image.has(a) || !image.has(b)) throw new UnsupportedModel('ADD of other than two images');
        const raw = `r${(temporary += 1)}`;
        add({ op: 'Add', inputs: [name(a), name(b)], outputs: [raw] });
        activate(raw, name(out), op.activation);
        image.add(out);
        break;
      }
      case 'LOGISTIC':
        add({ op: 'Sigmoid', inputs: [name(op.inputs[0]!)], outputs: [name(out)] });
        if (image.has(op.inputs[0]!)) image.add(out);
        break;
      case 'RESHAPE': {
        const input = op.inputs[0]!;
        let from = name(input);
        if (image.has(input)) {
          from = `n${(temporary += 1)}`;
          add({ op: 'Transpose', inputs: [name(input)], outputs: [from], attributes: [{ name: 'perm', ints: [0, 2, 3, 1] }] });
        }
        const shape = lite.tensors[out]!.shape;
        const target = `s${(temporary += 1)}`;
        graph.initializers.push({ name: target, dims: [shape.length], values: { int64: shape } });
        add({ op: 'Reshape', inputs: [from, target], outputs: [name(out)] });
        break;
      }
      case 'CONCATENATION': {
        const images = op.inputs.filter((k) => image.has(k)).length;
        if (images && images !== op.inputs.length) throw new UnsupportedModel('CONCATENATION of images with other tensors');
        const rank = lite.tensors[out]!.shape.length;
        const axis = op.axis! < 0 ? op.axis! + rank : op.axis!;
        const raw = `r${(temporary += 1)}`;
        add({ op: 'Concat', inputs: op.inputs.map(name), outputs: [raw], attributes: [{ name: 'axis', int: images ? NCHW_AXIS[axis]! : axis }] });
        activate(raw, name(out), op.activation);
        if (images) image.add(out);
        break;
      }
      default:
        throw new UnsupportedModel(op.kind);
    }
  }
  for (const k of lite.outputs) {
    if (image.has(k)) throw new UnsupportedModel('an image as the output');
    graph.outputs.push({ name: name(k), dims: lite.tensors[k]!.shape });
  }
  return graph;
}
