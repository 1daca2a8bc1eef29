// The edit-render worker's operation (workers/edit-render.ts), with the browser's parts it uses —
// OffscreenCanvas, createImageBitmap, FontFace and the worker's font set — played by
// @napi-rs/canvas and a recording font set: the picture it answers, the fonts it asks for, the
// lower qualities it tries when a JPEG is too large, and the failures it names.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import type { EditDescriptionInput } from '../../contract/edit';
import { textFont } from '../../contract/edit-draw';
import { renderFailureOf, type FontFaceSource, type RenderRequest } from '../../contract/edit-render';
import { renderEdit } from '../../workers/edit-render';

const encodes: { type: string; quality: number | undefined; size: number }[] = [];

class TestOffscreenCanvas {
  private readonly canvas: Canvas;
  constructor(width: number, height: number) {
    this.canvas = createCanvas(width, height);
  }
  getContext() {
    return this.canvas.getContext('2d');
  }
  async convertToBlob({ type = 'image/png', quality }: { type?: string; quality?: number } = {}) {
    const bytes = type === 'image/jpeg' ? await this.canvas.encode('jpeg', Math.round((quality ?? 0.92) * 100)) : await this.canvas.encode('png');
    encodes.push({ type, quality, size: bytes.length });
    return new Blob([new Uint8Array(bytes)], { type });
  }
}

async function createImageBitmap(file: Blob) {
  const image = await loadImage(new Uint8Array(await file.arrayBuffer()));
  return Object.assign(image, { close() {} });
}

class TestFontFace {
  constructor(
    readonly family: string,
    readonly source: string,
    readonly descriptors: Record<string, string>,
  ) {}
}

let fonts: { added: TestFontFace[]; loads: [string, string][]; fail: boolean };

beforeEach(() => {
  encodes.length = 0;
  fonts = { added: [], loads: [], fail: false };
  vi.stubGlobal('OffscreenCanvas', TestOffscreenCanvas);
  vi.stubGlobal('createImageBitmap', createImageBitmap);
  vi.stubGlobal('FontFace', TestFontFace);
  vi.stubGlobal('self', {
    fonts: {
      add: (face: TestFontFace) => fonts.added.push(face),
      load: async (font: string, text: string) => {
        fonts.loads.push([font, text]);
        if (fonts.fail) throw new Error('NetworkError');
        return [];
      },
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

/** A PNG: blue on the left half, transparent on the right (or noise, which JPEG cannot shrink much). */
async function picture(width: number, height: number, noise = false): Promise<Blob> {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (noise) {
    const pixels = ctx.createImageData(width, height);
    for (let i = 0; i < pixels.data.length; i += 1) pixels.data[i] = i % 4 === 3 ? 255 : Math.floor(Math.random() * 256);
    ctx.putImageData(pixels, 0, 0);
  } else {
    ctx.fillStyle = '#0000ff';
    ctx.fillRect(0, 0, width / 2, height);
  }
  return new Blob([new Uint8Array(await canvas.encode('png'))], { type: 'image/png' });
}

const asset_id = '7d1c3b1e-2f4a-4c8e-9b51-2a0f6f0c9d10';
const FACES: FontFaceSource[] = [
  { family: 'SoleStudio Sans', weight: 700, url: 'https://solestudio.test/assets/noto-sans-latin-700.woff2', unicodeRange: 'U+0000-00FF', style: 'normal' },
  { family: 'SoleStudio CJK', weight: 700, url: 'https://solestudio.test/assets/noto-sans-sc-119-700.woff2', unicodeRange: 'U+4E00', style: 'normal' },
];

function request(source: Blob, edit: Partial<EditDescriptionInput> = {}, extra: Partial<RenderRequest> = {}): RenderRequest {
  return {
    edit: { version: 1, source: { asset_id, width: 200, height: 100 }, crop: { ratio: null, x: 0, y: 0, width: 200, height: 100 }, layers: [], keep_transparency: false, ...edit } as RenderRequest['edit'],
    source,
    logos: {},
    fonts: FACES,
    ...extra,
  };
}

async function decoded(bytes: ArrayBuffer) {
  const image = await loadImage(new Uint8Array(bytes));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return { width: image.width, height: image.height, at: (x: number, y: number) => [...canvas.getContext('2d').getImageData(x, y, 1, 1).data] };
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  return renderFailureOf((error as Error).message);
}

describe('rendering an edit in the worker', () => {
  it('answers a JPEG of the crop, white where the source is transparent', async () => {
    const rendered = await renderEdit(request(await picture(200, 100), { crop: { ratio: '1:1', x: 50, y: 0, width: 100, height: 100 } }));
    expect(rendered).toMatchObject({ mime: 'image/jpeg', width: 100, height: 100 });
    expect(Object.keys(rendered.timings).sort()).toEqual(['decodeMs', 'drawMs', 'encodeMs', 'fontsMs']);
    const image = await decoded(rendered.bytes);
    expect([image.width, image.height]).toEqual([100, 100]);
    const [r, g, b] = image.at(20, 50);
    expect([r! < 30, g! < 30, b! > 220]).toEqual([true, true, true]);
    expect(image.at(80, 50).slice(0, 3).every((channel) => channel! > 240)).toBe(true);
    expect(encodes).toEqual([{ type: 'image/jpeg', quality: 0.92, size: rendered.bytes.byteLength }]);
  });

  it('answers a PNG that keeps the transparency when the seller asks', async () => {
    const rendered = await renderEdit(request(await picture(200, 100), { keep_transparency: true }));
    expect(rendered.mime).toBe('image/png');
    expect((await decoded(rendered.bytes)).at(150, 50)[3]).toBe(0);
  });

  it('adds each served face once and loads, for each text, its font and characters', async () => {
    const text = { type: 'text', id: 't', text: 'Sale 新品', size: 48, color: '#ffffff', bold: true, x: 0.5, y: 0.5 } as const;
    const edit = { layers: [text] };
    // Files of this test's own: the worker remembers the faces it added for as long as it lives.
    const faces = FACES.map((face) => ({ ...face, url: face.url.replace('.woff2', `-${crypto.randomUUID()}.woff2`) }));
    await renderEdit(request(await picture(200, 100), edit, { fonts: faces }));
    await renderEdit(request(await picture(200, 100), edit, { fonts: faces }));
    expect(fonts.added.map((face) => [face.family, face.source, face.descriptors])).toEqual([
      ['SoleStudio Sans', `url("${faces[0]!.url}")`, { weight: '700', style: 'normal', unicodeRange: 'U+0000-00FF' }],
      ['SoleStudio CJK', `url("${faces[1]!.url}")`, { weight: '700', style: 'normal', unicodeRange: 'U+4E00' }],
    ]);
    const font = textFont({ font: 'sans', size: 48, bold: true }, 200);
    expect(fonts.loads).toEqual([
      [font, 'Sale 新品'],
      [font, 'Sale 新品'],
    ]);
  });

  it('fails with FONTS_UNAVAILABLE when a font cannot be loaded', async () => {
    fonts.fail = true;
    const text = { type: 'text', id: 't', text: 'Sale', size: 48, color: '#ffffff', x: 0.5, y: 0.5 } as const;
    expect(await failureOf(renderEdit(request(await picture(200, 100), { layers: [text] })))).toBe('FONTS_UNAVAILABLE');
  });

  it('tries lower JPEG qualities when the picture is over the limit, and gives up below the last', async () => {
    const noisy = await picture(200, 100, true);
    const first = await renderEdit(request(noisy));
    encodes.length = 0;
    // Under the first encoding's size: the next quality down must be tried.
    const limit = Math.floor(first.bytes.byteLength * 0.9);
    const smaller = await renderEdit(request(noisy), { maxBytes: limit });
    expect(smaller.bytes.byteLength).toBeLessThanOrEqual(limit);
    expect(encodes.map((e) => e.quality)[0]).toBe(0.92);
    expect(encodes.length).toBeGreaterThan(1);
    encodes.length = 0;
    expect(await failureOf(renderEdit(request(noisy), { maxBytes: 100 }))).toBe('TOO_LARGE');
    expect(encodes.map((e) => e.quality)).toEqual([0.92, 0.85, 0.75, 0.6, 0.45]);
    expect(await failureOf(renderEdit(request(noisy, { keep_transparency: true }), { maxBytes: 100 }))).toBe('TOO_LARGE');
  });

  it('names what is wrong: the edit, the source, its size, a logo not given or not a picture', async () => {
    const source = await picture(200, 100);
    const garbage = new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/png' });
    const logo = { type: 'logo', id: 'l', file_key: 'logos/a.png', width: 40, height: 20, x: 0.5, y: 0.5 } as const;
    expect(await failureOf(renderEdit(request(source, { crop: { ratio: null, x: 150, y: 0, width: 100, height: 100 } })))).toBe('INVALID_EDIT');
    expect(await failureOf(renderEdit(request(garbage)))).toBe('SOURCE_UNREADABLE');
    expect(await failureOf(renderEdit(request(await picture(100, 100))))).toBe('SOURCE_MISMATCH');
    expect(await failureOf(renderEdit(request(source, { layers: [logo] })))).toBe('LOGO_MISSING');
    expect(await failureOf(renderEdit(request(source, { layers: [logo] }, { logos: { 'logos/a.png': garbage } })))).toBe('LOGO_UNREADABLE');
    const placed = await renderEdit(request(source, { layers: [logo] }, { logos: { 'logos/a.png': await picture(40, 20) } }));
    expect(placed.width).toBe(200);
  });
});
