// The one drawing code of an edit (DESIGN "The editor"): the editor's preview calls the layer
// functions inside its canvas shapes, and the worker draws the saved picture with drawEdit, so
// what is saved is what the seller saw. Pure functions over the few canvas calls they make
// (DrawContext), which a page's canvas, a worker's OffscreenCanvas, Konva's context and
// @napi-rs/canvas in tests all have.
import { textPixels, type EDIT_FONTS, type EditDescription, type LogoLayer, type TextLayer } from './edit';

export type EditFont = (typeof EDIT_FONTS)[number];

/**
 * The canvas calls the drawing makes. `Image` is whatever the context draws (an ImageBitmap in
 * the worker, an HTMLImageElement in the page, @napi-rs/canvas's Image in tests).
 */
export interface DrawContext<Image = unknown> {
  /** Only colours are written; contexts also take gradients and patterns. */
  fillStyle: string | object;
  font: string;
  textAlign: 'left' | 'right' | 'center' | 'start' | 'end';
  textBaseline: 'top' | 'hanging' | 'middle' | 'alphabetic' | 'ideographic' | 'bottom';
  globalAlpha: number;
  imageSmoothingEnabled: boolean;
  imageSmoothingQuality: 'low' | 'medium' | 'high';
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  rotate(angle: number): void;
  scale(x: number, y: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  arcTo(x1: number, y1: number, x2: number, y2: number, radius: number): void;
  closePath(): void;
  fill(): void;
  fillRect(x: number, y: number, width: number, height: number): void;
  clearRect(x: number, y: number, width: number, height: number): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
  drawImage(image: Image, dx: number, dy: number, dw: number, dh: number): void;
  drawImage(image: Image, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
}

/**
 * Our own names for the served faces: a font installed on the device under its usual name
 * (Noto Sans, Oswald) can never stand in for ours and draw other glyphs than the worker's.
 * Each family has weights 400 and 700; CJK comes from Noto Sans SC under one more name.
 */
export const FONT_FAMILIES = {
  sans: 'SoleStudio Sans',
  serif: 'SoleStudio Serif',
  display: 'SoleStudio Display',
  cjk: 'SoleStudio CJK',
} as const satisfies Record<EditFont | 'cjk', string>;

export const FONT_WEIGHTS = { regular: 400, bold: 700 } as const;

/** Each font's CSS family list: its own face (Latin, Cyrillic), then Noto Sans SC for CJK. */
export const FONT_STACKS: Record<EditFont, string> = {
  sans: `"${FONT_FAMILIES.sans}", "${FONT_FAMILIES.cjk}", sans-serif`,
  serif: `"${FONT_FAMILIES.serif}", "${FONT_FAMILIES.cjk}", serif`,
  display: `"${FONT_FAMILIES.display}", "${FONT_FAMILIES.cjk}", sans-serif`,
};

/** A text's line height, in font sizes. */
export const LINE_HEIGHT = 1.2;
/** The plate's margin around the text, and its corners' radius, in font sizes. */
export const PLATE_PADDING = 0.35;
export const PLATE_RADIUS = 0.25;

type TextStyle = Pick<TextLayer, 'font' | 'size' | 'bold'>;

/** The text's size in pixels on a picture `pictureWidth` wide, before the layer's own scale. */
function fontPixels(layer: Pick<TextLayer, 'size'>, pictureWidth: number): number {
  return Math.round(textPixels(layer.size, pictureWidth) * 100) / 100;
}

/** The CSS font shorthand a text layer is drawn with, at its size (before layer.scale). */
export function textFont(layer: TextStyle, pictureWidth: number): string {
  return `${layer.bold ? FONT_WEIGHTS.bold : FONT_WEIGHTS.regular} ${fontPixels(layer, pictureWidth)}px ${FONT_STACKS[layer.font]}`;
}

export interface TextBox {
  lines: string[];
  fontPx: number;
  lineHeight: number;
  /** The box the layer fills, plate included, centred on the layer's origin (before layer.scale). */
  width: number;
  height: number;
  /** The plate's margin inside the box (0 without a plate). */
  padding: number;
}

type TextParts = TextStyle & Pick<TextLayer, 'text' | 'plate'>;

/** A text layer's lines and box: lines break only where the seller typed a line break. */
export function measureTextLayer(ctx: DrawContext, layer: TextParts, pictureWidth: number): TextBox {
  const lines = layer.text.replace(/\r\n?/g, '\n').split('\n');
  const fontPx = fontPixels(layer, pictureWidth);
  const lineHeight = fontPx * LINE_HEIGHT;
  const padding = layer.plate ? fontPx * PLATE_PADDING : 0;
  ctx.save();
  ctx.font = textFont(layer, pictureWidth);
  const textWidth = Math.max(...lines.map((line) => ctx.measureText(line).width));
  ctx.restore();
  return { lines, fontPx, lineHeight, width: textWidth + 2 * padding, height: lines.length * lineHeight + 2 * padding, padding };
}

function roundedRect(ctx: DrawContext, x: number, y: number, width: number, height: number, radius: number) {
  const r = Math.min(radius, width / 2, height / 2);
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + width, y, x + width, y + height, r);
  ctx.arcTo(x + width, y + height, x, y + height, r);
  ctx.arcTo(x, y + height, x, y, r);
  ctx.arcTo(x, y, x + width, y, r);
  ctx.closePath();
}

/**
 * Draws a text layer centred on the origin (the caller has moved, turned and scaled to the
 * layer): its plate, then each line aligned inside the box. `box` saves measuring twice.
 */
export function drawTextLayer(ctx: DrawContext, layer: TextParts & Pick<TextLayer, 'color' | 'align'>, pictureWidth: number, box = measureTextLayer(ctx, layer, pictureWidth)): void {
  const left = -box.width / 2;
  const top = -box.height / 2;
  ctx.save();
  if (layer.plate) {
    ctx.fillStyle = layer.plate;
    roundedRect(ctx, left, top, box.width, box.height, box.fontPx * PLATE_RADIUS);
    ctx.fill();
  }
  ctx.font = textFont(layer, pictureWidth);
  ctx.fillStyle = layer.color;
  ctx.textAlign = layer.align;
  // The middle of each line's em square: the same in every browser and in the worker.
  ctx.textBaseline = 'middle';
  const x = layer.align === 'left' ? left + box.padding : layer.align === 'right' ? -left - box.padding : 0;
  box.lines.forEach((line, index) => {
    ctx.fillText(line, x, top + box.padding + box.lineHeight * (index + 0.5));
  });
  ctx.restore();
}

/** Draws a logo centred on the origin at its own pixel size (the caller's transform applies layer.scale). */
export function drawLogoLayer<Image>(ctx: DrawContext<Image>, layer: Pick<LogoLayer, 'width' | 'height' | 'opacity'>, image: Image): void {
  ctx.save();
  ctx.globalAlpha *= layer.opacity;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, -layer.width / 2, -layer.height / 2, layer.width, layer.height);
  ctx.restore();
}

export interface EditImages<Image> {
  source: Image;
  /** Logo images by their file_key; a layer whose logo is missing is left out. */
  logos: ReadonlyMap<string, Image>;
}

/** Draws a layer moved to its centre, turned and scaled, on a picture `width` × `height`. */
function inPlace(ctx: DrawContext, layer: Pick<TextLayer, 'x' | 'y' | 'rotation' | 'scale'>, width: number, height: number, scale: number, draw: () => void) {
  ctx.save();
  ctx.translate(layer.x * width, layer.y * height);
  ctx.rotate((layer.rotation * Math.PI) / 180);
  ctx.scale(layer.scale * scale, layer.scale * scale);
  draw();
  ctx.restore();
}

/**
 * Draws the whole edited picture, crop.width × crop.height times `scale`, from the canvas's
 * top-left corner: white (a JPEG has no transparency) unless the edit keeps transparency, the
 * source's crop, then each layer in order.
 */
export function drawEdit<Image>(ctx: DrawContext<Image>, edit: EditDescription, images: EditImages<Image>, scale = 1): void {
  const { crop } = edit;
  const width = crop.width * scale;
  const height = crop.height * scale;
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.clearRect(0, 0, width, height);
  if (!edit.keep_transparency) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
  }
  ctx.drawImage(images.source, crop.x, crop.y, crop.width, crop.height, 0, 0, width, height);
  for (const layer of edit.layers) {
    if (layer.type === 'text') {
      inPlace(ctx, layer, width, height, scale, () => drawTextLayer(ctx, layer, crop.width));
    } else {
      const logo = images.logos.get(layer.file_key);
      if (logo) inPlace(ctx, layer, width, height, scale, () => drawLogoLayer(ctx, layer, logo));
    }
  }
  ctx.restore();
}
