// What the page asks of the edit-render worker and the picture it gets back: the saved edit drawn
// at full resolution (the crop in the source's pixels) and encoded, off the page's thread.
import type { EditDescription } from './edit';

/** One served font file, as a FontFace takes it. */
export interface FontFaceSource {
  family: string;
  weight: number;
  /** An absolute address (the worker resolves nothing against the page). */
  url: string;
  /** The characters the file holds (CSS unicode-range): only the slices a text needs are fetched. */
  unicodeRange?: string;
  style?: 'normal' | 'italic';
}

export interface RenderRequest {
  /** Checked against editDescriptionSchema in the worker. */
  edit: EditDescription;
  /** The source picture's file, edit.source.width × height pixels. */
  source: Blob;
  /** Logo files by file_key. */
  logos: Record<string, Blob>;
  /** The faces the text layers may use (the editor's font manifest). */
  fonts: FontFaceSource[];
  /** JPEG quality, 0–1 (0.92 when left out). */
  quality?: number;
}

export interface RenderTimings {
  /** Decoding the source and the logos. */
  decodeMs: number;
  /** Loading the fonts the text layers need (nothing once they are loaded). */
  fontsMs: number;
  drawMs: number;
  /** Encoding, with every retry at a lower quality. */
  encodeMs: number;
}

export interface RenderedEdit {
  bytes: ArrayBuffer;
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  timings: RenderTimings;
}

export interface EditRenderApi {
  render(request: RenderRequest): Promise<RenderedEdit>;
}

/** JPEG quality when the request names none. */
export const DEFAULT_EDIT_QUALITY = 0.92;

/**
 * Why a render failed. The worker rejects with an Error whose message starts with the code
 * ("SOURCE_UNREADABLE: …"); the page's bridge turns it back into the code.
 */
export const EDIT_RENDER_FAILURES = [
  /** The edit does not pass the contract. */
  'INVALID_EDIT',
  /** The source file is not a picture the browser decodes. */
  'SOURCE_UNREADABLE',
  /** The source decodes to another size than the edit describes. */
  'SOURCE_MISMATCH',
  /** A logo layer's file was not given. */
  'LOGO_MISSING',
  'LOGO_UNREADABLE',
  /** A font a text layer needs could not be loaded. */
  'FONTS_UNAVAILABLE',
  /** The browser has no OffscreenCanvas here, or none this large. */
  'CANVAS_UNAVAILABLE',
  /** Over MAX_UPLOAD_BYTES even at the lowest JPEG quality tried (or as a PNG). */
  'TOO_LARGE',
  /** The worker could not start or stopped during the render. */
  'WORKER_FAILED',
] as const;
export type EditRenderFailure = (typeof EDIT_RENDER_FAILURES)[number];

/** The code a render's error message starts with, or null. */
export function renderFailureOf(message: string): EditRenderFailure | null {
  const code = /^([A-Z_]+):/.exec(message)?.[1];
  return (EDIT_RENDER_FAILURES as readonly string[]).includes(code ?? '') ? (code as EditRenderFailure) : null;
}
