// The edit description (contract/edit.ts): what an editor may send and the server keeps — text
// 12–72, SPEC's crop ratios with the marketplaces' 3:4, a crop inside its source, unique layers.
import { describe, expect, it } from 'vitest';
import {
  centredCrop,
  CROP_RATIOS,
  editDescriptionSchema,
  marketplacesBelowMinimum,
  TEXT_SIZE_MAX,
  TEXT_SIZE_MIN,
  textPixels,
  type CropRatio,
} from '../../contract/edit';

const source = { asset_id: '7d1c3b1e-2f4a-4c8e-9b51-2a0f6f0c9d10', width: 2080, height: 2080 };
const text = (extra: Record<string, unknown> = {}) => ({ type: 'text', id: 't1', text: 'Sale −30%', size: 48, color: '#ffffff', x: 0.5, y: 0.5, ...extra });
const edit = (extra: Record<string, unknown> = {}) => ({ version: 1, source, crop: centredCrop(source, null), layers: [text()], ...extra });
const problems = (value: unknown) => editDescriptionSchema.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('the edit description', () => {
  it('takes a text size from 12 to 72 and nothing outside', () => {
    expect(problems(edit({ layers: [text({ size: TEXT_SIZE_MIN })] }))).toEqual([]);
    expect(problems(edit({ layers: [text({ size: TEXT_SIZE_MAX })] }))).toEqual([]);
    expect(problems(edit({ layers: [text({ size: TEXT_SIZE_MIN - 1 })] }))).toHaveLength(1);
    expect(problems(edit({ layers: [text({ size: TEXT_SIZE_MAX + 1 })] }))).toHaveLength(1);
    expect(problems(edit({ layers: [text({ size: 48.5 })] }))).toHaveLength(1);
  });

  it('fills what the editor may leave out, and refuses an empty text, a colour that is not one, a place off the picture', () => {
    const parsed = editDescriptionSchema.parse(edit());
    expect(parsed.layers[0]).toMatchObject({ font: 'sans', bold: false, align: 'center', plate: null, rotation: 0, scale: 1 });
    expect(parsed.keep_transparency).toBe(false);
    expect(problems(edit({ layers: [text({ text: '   ' })] }))).toHaveLength(1);
    expect(problems(edit({ layers: [text({ color: 'red' })] }))).toHaveLength(1);
    expect(problems(edit({ layers: [text({ x: 1.2 })] }))).toHaveLength(1);
    expect(problems(edit({ layers: [text({ text: 'a\u0000b' })] }))).toHaveLength(1);
  });

  it('keeps the crop inside the source and at its ratio', () => {
    for (const ratio of Object.keys(CROP_RATIOS) as CropRatio[]) {
      for (const size of [source, { ...source, width: 1200, height: 900 }, { ...source, width: 900, height: 1600 }]) {
        const crop = centredCrop(size, ratio);
        expect(problems(edit({ source: size, crop })), `${ratio} of ${size.width}×${size.height}`).toEqual([]);
        expect(crop.x + crop.width).toBeLessThanOrEqual(size.width);
        expect(crop.y + crop.height).toBeLessThanOrEqual(size.height);
        // As large as fits: one side is the source's whole side.
        expect(crop.width === size.width || crop.height === size.height).toBe(true);
      }
    }
    expect(centredCrop({ width: 1200, height: 900 }, '3:4')).toEqual({ ratio: '3:4', x: 262, y: 0, width: 675, height: 900 });
    expect(problems(edit({ crop: { ratio: null, x: 100, y: 0, width: 2000, height: 2080 } }))).toEqual(['crop: the crop reaches outside the source picture']);
    expect(problems(edit({ crop: { ratio: '16:9', x: 0, y: 0, width: 2080, height: 2080 } }))).toEqual(['crop: the crop is not 16:9']);
  });

  it('refuses two layers with one id, and more layers than it holds', () => {
    expect(problems(edit({ layers: [text(), text()] }))).toEqual(['layers.1.id: two layers have one id']);
    expect(problems(edit({ layers: Array.from({ length: 21 }, (_, i) => text({ id: `t${i}` })) }))).toHaveLength(1);
  });

  it('takes a logo with its own size and an opacity, and refuses a layer of another kind', () => {
    const logo = { type: 'logo', id: 'logo', file_key: 'uploads/u/logo.png', width: 512, height: 256, x: 0.9, y: 0.1, opacity: 0.8 };
    expect(problems(edit({ layers: [text(), logo] }))).toEqual([]);
    expect(problems(edit({ layers: [{ ...logo, opacity: 0 }] }))).toHaveLength(1);
    expect(problems(edit({ layers: [{ ...logo, type: 'sticker' }] }))).toHaveLength(1);
  });

  it('scales a text size with the picture, and names the marketplaces a crop is too small for', () => {
    expect(textPixels(48, 1080)).toBe(48);
    expect(textPixels(48, 2160)).toBe(96);
    expect(marketplacesBelowMinimum({ width: 900, height: 1200 })).toEqual(['amazon']);
    expect(marketplacesBelowMinimum({ width: 2080, height: 2080 })).toEqual([]);
    expect(marketplacesBelowMinimum({ width: 675, height: 900 })).toEqual(['wildberries', 'ozon', 'amazon']);
  });
});
