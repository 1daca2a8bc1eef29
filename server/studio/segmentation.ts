// What the segmentation finds on the working copy, and the cut-out made from it at full size.

/** A part of the photo, in its pixels. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A part of the frame as shares of its width and height: left, top, right, bottom. */
export type Span = [number, number, number, number];

export interface Cutout {
  /** The shoe on transparency, cropped to it: straight RGBA, row by row, its edge soft and free of the old background. */
  rgba: Uint8Array;
  width: number;
  height: number;
  /** Where the crop sits in the corrected photo. */
  box: { left: number; top: number; width: number; height: number };
  /** The photo's size (after EXIF rotation). */
  source: { width: number; height: number };
  /** The mask at full size: 255 shoe, 0 background. */
  mask: Uint8Array;
  /** Per-channel gains that made the background neutral, its brightness kept. */
  gains: [number, number, number];
}

export interface Segmentation {
  /** 1 shoe, 0 anything else, at the working size: every shoe in the frame and nothing more. */
  mask: Uint8Array;
  /** Each working pixel's chessboard distance to the other side of the mask (masks.ts `chessboard`). */
  edge: Uint8Array;
  /** How surely each working pixel stands out (the network's answer, 0–1), over the kept shoes only. */
  soft: Float32Array;
  /** Working pixels near the outline, where the colours either side are known. */
  band: Uint8Array;
  /** Along the outline, the shoe's sRGB colour nearby and the backdrop's beside it (shadows included): 3 planes each. */
  shoeColour: Float32Array[];
  backColour: Float32Array[];
  /** The backdrop's colour: the median of what is neither shoe nor anything else standing out. */
  backdrop: [number, number, number];
  /** Share of the shoes' pixels the network is sure of: low when it cannot tell the shoe from its backdrop. */
  solid: number;
  /** Share of the frame the network was unsure of (salience ¼–½): large beside the shoe when it only half-saw it. */
  unsure: number;
  /** The most salient pixel anywhere (0–1): whether anything stood out at all. */
  reach: number;
  /** Share of the frame in salient pieces that were left out as not shoes: clutter round the shoe. */
  clutter: number;
  /** Kept-shoe pixels on the frame's outermost rows and columns: the shoe goes on beyond it. */
  atFrame: number;
}

export class NoShoeFound extends Error {
  constructor() {
    super('no shoe stands out from the background');
    this.name = 'NoShoeFound';
  }
}
