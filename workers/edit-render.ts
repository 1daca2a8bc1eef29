// One operation: the saved edit drawn at full resolution (the crop in the source's own pixels)
// with the editor's drawing code, on an OffscreenCanvas, and encoded as JPEG — PNG when the
// seller keeps transparency — within the upload limit. Runs in a worker, so the page never stalls.
import { editDescriptionSchema, type TextLayer } from '../contract/edit';
import { drawEdit, textFont } from '../contract/edit-draw';
import { DEFAULT_EDIT_QUALITY, type EditRenderFailure, type FontFaceSource, type RenderedEdit, type RenderRequest } from '../contract/edit-render';
import { MAX_UPLOAD_BYTES } from '../contract/materials';

/** JPEG qualities tried, in turn, when a picture comes out over the upload limit. */
const FALLBACK_QUALITIES = [0.85, 0.75, 0.6, 0.45];

function failure(code: EditRenderFailure, detail: string): Error {
  const error = new Error(`${code}: ${detail}`);
  error.name = 'EditRenderError';
  return error;
}

/** Faces already handed to this worker's font set, by file: each is added once and fetched once. */
const added = new Set<string>();

function addFaces(fonts: FontFaceSource[]) {
  for (const font of fonts) {
    const key = `${font.family}|${font.weight}|${font.style ?? 'normal'}|${font.url}`;
    if (added.has(key)) continue;
    const descriptors: FontFaceDescriptors = { weight: String(font.weight), style: font.style ?? 'normal' };
    if (font.unicodeRange) descriptors.unicodeRange = font.unicodeRange;
    self.fonts.add(new FontFace(font.family, `url(${JSON.stringify(font.url)})`, descriptors));
    added.add(key);
  }
}

/** Loads, for each text layer, the faces its font and characters need (only those CJK slices). */
async function loadFonts(layers: TextLayer[], fonts: FontFaceSource[], pictureWidth: number) {
  if (layers.length === 0) return;
  if (!('fonts' in self)) throw failure('FONTS_UNAVAILABLE', 'this browser cannot load fonts in a worker');
  addFaces(fonts);
  try {
    await Promise.all(layers.map((layer) => self.fonts.load(textFont(layer, pictureWidth), layer.text)));
  } catch (error) {
    throw failure('FONTS_UNAVAILABLE', `a font could not be loaded (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Decodes a picture into `into` (closed by the caller whatever happens next). */
async function decode(file: Blob, into: ImageBitmap[], onError: () => Error): Promise<ImageBitmap> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw onError();
  }
  into.push(bitmap);
  return bitmap;
}

async function encode(canvas: OffscreenCanvas, png: boolean, quality: number, maxBytes: number): Promise<Blob> {
  if (png) {
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    if (blob.size > maxBytes) throw failure('TOO_LARGE', `the PNG is ${blob.size} bytes, over ${maxBytes}`);
    return blob;
  }
  const qualities = [quality, ...FALLBACK_QUALITIES.filter((lower) => lower < quality)];
  let size = 0;
  for (const q of qualities) {
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: q });
    if (blob.size <= maxBytes) return blob;
    size = blob.size;
  }
  throw failure('TOO_LARGE', `the JPEG is ${size} bytes at quality ${qualities.at(-1)}, over ${maxBytes}`);
}

/** `maxBytes`: the largest picture to answer (the upload limit; tests ask for less). */
export async function renderEdit(request: RenderRequest, { maxBytes = MAX_UPLOAD_BYTES } = {}): Promise<RenderedEdit> {
  const parsed = editDescriptionSchema.safeParse(request.edit);
  if (!parsed.success) {
    throw failure('INVALID_EDIT', parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  }
  const edit = parsed.data;
  const { crop } = edit;
  if (typeof OffscreenCanvas === 'undefined') throw failure('CANVAS_UNAVAILABLE', 'this browser has no OffscreenCanvas in workers');

  const bitmaps: ImageBitmap[] = [];
  try {
    const started = performance.now();
    const logoKeys = [...new Set(edit.layers.flatMap((layer) => (layer.type === 'logo' ? [layer.file_key] : [])))];
    for (const key of logoKeys) if (!request.logos[key]) throw failure('LOGO_MISSING', `no file was given for the logo ${key}`);
    const [source, ...logos] = await Promise.all([
      decode(request.source, bitmaps, () => failure('SOURCE_UNREADABLE', 'the source picture cannot be decoded')),
      ...logoKeys.map((key) => decode(request.logos[key]!, bitmaps, () => failure('LOGO_UNREADABLE', `the logo ${key} cannot be decoded`))),
    ]);
    if (source!.width !== edit.source.width || source!.height !== edit.source.height) {
      throw failure('SOURCE_MISMATCH', `the source picture is ${source!.width}×${source!.height}, the edit describes ${edit.source.width}×${edit.source.height}`);
    }
    const decoded = performance.now();

    const texts = edit.layers.filter((layer): layer is TextLayer => layer.type === 'text');
    await loadFonts(texts, request.fonts, crop.width);
    const fontsLoaded = performance.now();

    const canvas = new OffscreenCanvas(crop.width, crop.height);
    const ctx = canvas.getContext('2d', { alpha: edit.keep_transparency });
    if (!ctx) throw failure('CANVAS_UNAVAILABLE', `no canvas of ${crop.width}×${crop.height} could be made`);
    drawEdit(ctx, edit, { source: source!, logos: new Map(logoKeys.map((key, index) => [key, logos[index]!])) });
    const drawn = performance.now();

    const blob = await encode(canvas, edit.keep_transparency, request.quality ?? DEFAULT_EDIT_QUALITY, maxBytes);
    const bytes = await blob.arrayBuffer();
    const encoded = performance.now();
    return {
      bytes,
      mime: edit.keep_transparency ? 'image/png' : 'image/jpeg',
      width: crop.width,
      height: crop.height,
      timings: { decodeMs: decoded - started, fontsMs: fontsLoaded - decoded, drawMs: drawn - fontsLoaded, encodeMs: encoded - drawn },
    };
  } finally {
    for (const bitmap of bitmaps) bitmap.close();
  }
}
