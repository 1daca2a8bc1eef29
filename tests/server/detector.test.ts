// The footwear detector (detector.ts) and the TFLite-to-ONNX path it is run through (tflite.ts,
// tflite-to-onnx.ts, onnx-proto.ts). A model built here with known weights checks the reader, the
// layout change and the writer end to end; the shipped model's first convolutions are checked
// against TFLite's definition of them, computed here; where its boxes land is checked on drawn
// shoes, whose place is known (what it calls them is measured on real photos, in the bench).
import { Builder } from 'flatbuffers';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detect, detectorFiles, shoeRegion, type Detection } from '../../server/studio/detector';
import { onnxModel } from '../../server/studio/onnx-proto';
import { readTflite, UnsupportedModel } from '../../server/studio/tflite';
import { tfliteToOnnx } from '../../server/studio/tflite-to-onnx';
import { phoneShoePhoto, PHONE_CASES } from '../fixtures/phone-shoes';

interface TensorSpec {
  shape: number[];
  type: number;
  /** Constant bytes, little-endian. */
  data?: Uint8Array;
}

interface OperatorSpec {
  code: number;
  inputs: number[];
  outputs: number[];
  /** Conv2DOptions: padding (0 SAME), stride_w, stride_h, activation (1 RELU). */
  conv?: [number, number, number, number];
}

/** A TFLite FlatBuffer as schema.fbs lays it out, with the fields these tests need. */
function tflite(tensors: TensorSpec[], operators: OperatorSpec[], inputs: number[], outputs: number[]): Uint8Array {
  const b = new Builder(1024);
  b.forceDefaults(true);
  const vector = (values: number[], add: (v: number) => void, size: number) => {
    b.startVector(size, values.length, size);
    for (const v of [...values].reverse()) add(v);
    return b.endVector();
  };
  const ints = (values: number[]) => vector(values, (v) => b.addInt32(v), 4);
  const offsets = (values: number[]) => vector(values, (v) => b.addOffset(v), 4);
  const buffers = [undefined, ...tensors.map((t) => t.data)].map((data) => {
    const bytes = data ? vector([...data], (v) => b.addInt8(v), 1) : 0;
    b.startObject(1);
    if (bytes) b.addFieldOffset(0, bytes, 0);
    return b.endObject();
  });
  const tensorTables = tensors.map((t, k) => {
    const shape = ints(t.shape);
    const name = b.createString(`t${k}`);
    b.startObject(4);
    b.addFieldOffset(0, shape, 0);
    b.addFieldInt8(1, t.type, -1);
    b.addFieldInt32(2, t.data ? k + 1 : 0, -1);
    b.addFieldOffset(3, name, 0);
    return b.endObject();
  });
  const codes = [...new Set(operators.map((o) => o.code))];
  const codeTables = codes.map((code) => {
    b.startObject(4);
    b.addFieldInt8(0, Math.min(code, 127), -1);
    b.addFieldInt32(3, code, -1);
    return b.endObject();
  });
  const operatorTables = operators.map((op) => {
    let options = 0;
    if (op.conv) {
      b.startObject(4);
      op.conv.forEach((v, field) => (field === 0 || field === 3 ? b.addFieldInt8(field, v, -1) : b.addFieldInt32(field, v, -1)));
      options = b.endObject();
    }
    const ins = ints(op.inputs);
    const outs = ints(op.outputs);
    b.startObject(5);
    b.addFieldInt32(0, codes.indexOf(op.code), -1);
    b.addFieldOffset(1, ins, 0);
    b.addFieldOffset(2, outs, 0);
    if (options) {
      b.addFieldInt8(3, 1, -1);
      b.addFieldOffset(4, options, 0);
    }
    return b.endObject();
  });
  const tensorVector = offsets(tensorTables);
  const inputVector = ints(inputs);
  const outputVector = ints(outputs);
  const operatorVector = offsets(operatorTables);
  b.startObject(4);
  b.addFieldOffset(0, tensorVector, 0);
  b.addFieldOffset(1, inputVector, 0);
  b.addFieldOffset(2, outputVector, 0);
  b.addFieldOffset(3, operatorVector, 0);
  const graph = b.endObject();
  const codeVector = offsets(codeTables);
  const graphVector = offsets([graph]);
  const bufferVector = offsets(buffers);
  b.startObject(5);
  b.addFieldInt32(0, 3, -1);
  b.addFieldOffset(1, codeVector, 0);
  b.addFieldOffset(2, graphVector, 0);
  b.addFieldOffset(4, bufferVector, 0);
  b.finish(b.endObject(), 'TFL3');
  return b.asUint8Array();
}

const halves = (values: number[]) => {
  // 2, -1 and 0.5 in IEEE half precision.
  const bits: Record<number, number> = { 2: 0x4000, [-1]: 0xbc00, 0.5: 0x3800 };
  const out = new Uint8Array(values.length * 2);
  values.forEach((v, k) => new DataView(out.buffer).setUint16(2 * k, bits[v]!, true));
  return out;
};
const int32s = (values: number[]) => new Uint8Array(Int32Array.from(values).buffer);

async function run(model: Uint8Array, feeds: Record<string, ort.Tensor>, fetch?: string[]) {
  const session = await ort.InferenceSession.create(model);
  try {
    return await (fetch ? session.run(feeds, fetch) : session.run(feeds));
  } finally {
    await session.release();
  }
}

describe('a TFLite model run through onnxruntime', () => {
  // Input 1×2×3×2 (NHWC); float16 weights [2, −1] and bias 0.5, dequantised; a 1 × 1 convolution
  // with RELU; reshaped to 1 × 6 in TFLite's NHWC order.
  const model = tflite(
    [
      { shape: [1, 2, 3, 2], type: 0 },
      { shape: [1, 1, 1, 2], type: 1, data: halves([2, -1]) },
      { shape: [1, 1, 1, 2], type: 0 },
      { shape: [1], type: 1, data: halves([0.5]) },
      { shape: [1], type: 0 },
      { shape: [1, 2, 3, 1], type: 0 },
      { shape: [2], type: 2, data: int32s([1, 6]) },
      { shape: [1, 6], type: 0 },
    ],
    [
      { code: 6, inputs: [1], outputs: [2] },
      { code: 6, inputs: [3], outputs: [4] },
      { code: 3, inputs: [0, 2, 4], outputs: [5], conv: [0, 1, 1, 1] },
      { code: 22, inputs: [5, 6], outputs: [7] },
    ],
    [0],
    [7],
  );

  it('reads the operators, their options and the float16 constants', () => {
    const graph = readTflite(model);
    expect(graph.operators.map((o) => o.kind)).toEqual(['DEQUANTIZE', 'DEQUANTIZE', 'CONV_2D', 'RESHAPE']);
    expect(graph.operators[2]).toMatchObject({ same: true, stride: [1, 1], activation: 'RELU' });
    expect(Array.from(graph.tensors[1]!.values!)).toEqual([2, -1]);
    expect(Array.from(graph.tensors[6]!.values!)).toEqual([1, 6]);
  });

  it('computes what TFLite defines, its input taken as NCHW and its output in TFLite order', async () => {
    const graph = tfliteToOnnx(readTflite(model));
    expect(graph.inputs[0]!.dims).toEqual([1, 2, 2, 3]);
    // NHWC pixel (y, x) has channels a = y * 3 + x and b = 10 − a.
    const nhwc = Array.from({ length: 6 }, (_, p) => [p, 10 - p]);
    const nchw = new Float32Array(12);
    nhwc.forEach(([a, b], p) => {
      nchw[p] = a!;
      nchw[6 + p] = b!;
    });
    const out = await run(onnxModel(graph, 'test'), { [graph.inputs[0]!.name]: new ort.Tensor('float32', nchw, [1, 2, 2, 3]) });
    const expected = nhwc.map(([a, b]) => Math.max(0, 2 * a! - b! + 0.5));
    expect(Array.from(out[graph.outputs[0]!.name]!.data as Float32Array)).toEqual(expected);
  });

  it('refuses an operator it does not convert, naming it', () => {
    const pooled = tflite([{ shape: [1, 2, 2, 1], type: 0 }, { shape: [1, 1, 1, 1], type: 0 }], [{ code: 17, inputs: [0], outputs: [1] }], [0], [1]);
    expect(() => readTflite(pooled)).toThrow(UnsupportedModel);
    expect(() => readTflite(pooled)).toThrow(/operator 17/);
  });
});

describe('the footwear detector', () => {
  it('converts the shipped model so that its first convolutions compute what TFLite defines', async () => {
    const { model, labels } = await detectorFiles();
    expect(labels).toContain('Footwear');
    const lite = readTflite(model);
    const graph = tfliteToOnnx(lite);
    const [conv, depthwise] = ['CONV_2D', 'DEPTHWISE_CONV_2D'].map((kind) => lite.operators.find((o) => o.kind === kind)!);
    const first = conv!.outputs[0]!;
    const second = depthwise!.outputs[0]!;
    expect(depthwise!.inputs[0]).toBe(first);
    const constant = (k: number) => {
      const made = lite.operators.find((o) => o.outputs[0] === k);
      return (made?.kind === 'DEQUANTIZE' ? lite.tensors[made.inputs[0]!]! : lite.tensors[k]!).values as Float32Array;
    };
    const side = 300;
    const input = Float32Array.from({ length: 3 * side * side }, (_, i) => Math.sin(i * 0.37) * 0.3);
    for (const k of [first, second]) {
      const [n, h, w, c] = lite.tensors[k]!.shape;
      graph.outputs.push({ name: `t${k}`, dims: [n!, c!, h!, w!] });
    }
    const out = await run(onnxModel(graph, 'test'), { [graph.inputs[0]!.name]: new ort.Tensor('float32', input, [1, 3, side, side]) }, [`t${first}`, `t${second}`]);
    const a = out[`t${first}`]!.data as Float32Array;
    const b = out[`t${second}`]!.data as Float32Array;
    const [channels, , , inChannels] = lite.tensors[conv!.inputs[1]!]!.shape as [number, number, number, number];
    const half = side / 2;
    // CONV_2D, 3 × 3, stride 2, SAME (TFLite pads 0 before and 1 after), RELU6; weights [O, H, W, I].
    const w1 = constant(conv!.inputs[1]!);
    const b1 = constant(conv!.inputs[2]!);
    const pixel = (c: number, y: number, x: number) => (y < side && x < side ? input[(c * side + y) * side + x]! : 0);
    // Depthwise, 3 × 3, stride 1, SAME (1 each side), RELU6; weights [1, H, W, C].
    const w2 = constant(depthwise!.inputs[1]!);
    const b2 = constant(depthwise!.inputs[2]!);
    const at = (c: number, y: number, x: number) => (y >= 0 && x >= 0 && y < half && x < half ? a[(c * half + y) * half + x]! : 0);
    const relu6 = (v: number) => Math.min(6, Math.max(0, v));
    // Compared where neither value is clipped by RELU6 (a clipped one would hide a wrong kernel).
    let compared = 0;
    for (let c = 0; c < channels; c += 5) {
      for (let y = 0; y < half; y += 37) {
        for (const x of [0, 1, 74, half - 1]) {
          let sum = b1[c]!;
          for (let ky = 0; ky < 3; ky += 1) for (let kx = 0; kx < 3; kx += 1) for (let i = 0; i < inChannels; i += 1) sum += w1[((c * 3 + ky) * 3 + kx) * inChannels + i]! * pixel(i, 2 * y + ky, 2 * x + kx);
          expect(a[(c * half + y) * half + x]).toBeCloseTo(relu6(sum), 4);
          let deep = b2[c]!;
          for (let ky = 0; ky < 3; ky += 1) for (let kx = 0; kx < 3; kx += 1) deep += w2[(ky * 3 + kx) * channels + c]! * at(c, y + ky - 1, x + kx - 1);
          expect(b[(c * half + y) * half + x]).toBeCloseTo(relu6(deep), 4);
          if (sum > 0 && sum < 6 && deep > 0 && deep < 6) compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('puts its boxes where the shoe is in the frame', async () => {
    for (const { options } of PHONE_CASES.slice(0, 6)) {
      const shoe = await phoneShoePhoto(options);
      const { data, info } = await sharp(shoe.jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const [best] = await detect(data, info.width, info.height);
      let [l, t, r, b] = [1, 1, 0, 0];
      for (let y = 0; y < shoe.height; y += 1)
        for (let x = 0; x < shoe.width; x += 1)
          if (shoe.mask[y * shoe.width + x]) [l, t, r, b] = [Math.min(l, x / shoe.width), Math.min(t, y / shoe.height), Math.max(r, x / shoe.width), Math.max(b, y / shoe.height)];
      const [bl, bt, br, bb] = best!.box;
      const inter = Math.max(0, Math.min(r, br) - Math.max(l, bl)) * Math.max(0, Math.min(b, bb) - Math.max(t, bt));
      expect(inter / ((r - l) * (b - t) + (br - bl) * (bb - bt) - inter)).toBeGreaterThan(0.6);
    }
  });
});

describe('the part of the photo the shoes are looked for in', () => {
  const shoe = (score: number, box: Detection['box'], label = 'Footwear'): Detection => ({ label, score, box });

  it('is the whole frame until the detector is sure of a shoe', () => {
    expect(shoeRegion([], 1000, 800)).toBeNull();
    expect(shoeRegion([shoe(0.42, [0.2, 0.2, 0.6, 0.6]), shoe(0.9, [0, 0, 1, 1], 'Box')], 1000, 800)).toBeNull();
  });

  it('holds every shoe seen once one is sure, with an eighth of their box round them, inside the frame', () => {
    const region = shoeRegion([shoe(0.7, [0.3, 0.25, 0.5, 0.65], 'High heels'), shoe(0.25, [0.5, 0.3, 0.7, 0.7], 'Boot'), shoe(0.15, [0.8, 0.8, 0.95, 0.95]), shoe(0.9, [0, 0, 0.2, 0.2], 'Box')], 1000, 800);
    // Shoes span x 0.3–0.7 and y 0.25–0.7: 0.048 and 0.054 of room.
    expect(region).toEqual({ left: 252, top: 156, width: 496, height: 448 });
    expect(shoeRegion([shoe(0.8, [-0.02, 0.5, 0.6, 1.01])], 1000, 800)).toEqual({ left: 0, top: 351, width: 675, height: 449 });
  });
});
