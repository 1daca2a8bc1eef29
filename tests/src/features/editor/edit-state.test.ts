// The editor's state: every action answers an edit the contract takes, and undo and redo walk the
// seller's steps back and forth, a whole drag being one step.
import { describe, expect, it } from 'vitest';
import { CROP_RATIOS, editDescriptionSchema, type CropRatio, type EditDescription } from '../../../../contract/edit';
import { applyEdit, blankEdit, HISTORY_LIMIT, record, redo, startHistory, undo, type EditAction } from '../../../../src/features/editor/edit-state';

const source = { asset_id: '7d1c3b1e-2f4a-4c8e-9b51-2a0f6f0c9d10', width: 1200, height: 900 };
const valid = (edit: EditDescription) => expect(editDescriptionSchema.safeParse(edit).error?.issues ?? []).toEqual([]);

describe('editing actions', () => {
  it('keep the edit valid whatever the values: text size, places, turns, opacity, crops', () => {
    const steps: EditAction[] = [
      { type: 'addText', id: 'price', text: '2 990 ₽', color: '#d4402b', size: 200 },
      { type: 'updateText', id: 'price', patch: { size: 3 } },
      { type: 'place', id: 'price', x: 1.7, y: -0.2, rotation: 450, scale: 99 },
      { type: 'addLogo', id: 'logo', fileKey: 'uploads/logo.png', width: 4000, height: 1000 },
      { type: 'updateLogo', id: 'logo', patch: { opacity: 0 } },
      { type: 'setCrop', ratio: '3:4' },
      { type: 'moveCrop', x: 5000, y: -40, width: 20_000 },
      { type: 'moveCrop', x: 100, y: 100, width: 10 },
    ];
    let edit = blankEdit(source);
    for (const step of steps) {
      edit = applyEdit(edit, step);
      valid(edit);
    }
    const [text, logo] = edit.layers;
    expect(text).toMatchObject({ type: 'text', size: 12, x: 1, y: 0, rotation: 90, scale: 20 });
    expect(logo).toMatchObject({ type: 'logo', opacity: 0.05 });
    expect(edit.crop.ratio).toBe('3:4');
  });

  it('puts a new logo in the top-right corner, a fifth of the picture wide', () => {
    const edit = applyEdit(blankEdit(source), { type: 'addLogo', id: 'logo', fileKey: 'uploads/logo.png', width: 600, height: 200 });
    const logo = edit.layers[0]!;
    expect(logo.x).toBeGreaterThan(0.8);
    expect(logo.y).toBeLessThan(0.15);
    expect((600 * logo.scale) / source.width).toBeCloseTo(0.22, 2);
  });

  it('crops at every ratio, centred, and pans and zooms inside the source at that ratio', () => {
    for (const ratio of Object.keys(CROP_RATIOS) as CropRatio[]) {
      const edit = applyEdit(blankEdit(source), { type: 'setCrop', ratio });
      valid(edit);
      const panned = applyEdit(edit, { type: 'moveCrop', x: 0, y: 0, width: edit.crop.width / 2 });
      valid(panned);
      expect(panned.crop).toMatchObject({ x: 0, y: 0, ratio });
      expect(panned.crop.width / panned.crop.height).toBeCloseTo(CROP_RATIOS[ratio], 1);
    }
    // Back to the whole picture.
    expect(applyEdit(applyEdit(blankEdit(source), { type: 'setCrop', ratio: '1:1' }), { type: 'setCrop', ratio: null }).crop).toEqual({ ratio: null, x: 0, y: 0, width: 1200, height: 900 });
  });

  it('reset takes every layer and the crop away; removing takes one layer', () => {
    let edit = applyEdit(blankEdit(source), { type: 'addText', id: 'a', text: 'A', color: '#000000' });
    edit = applyEdit(edit, { type: 'addText', id: 'b', text: 'B', color: '#000000' });
    expect(applyEdit(edit, { type: 'removeLayer', id: 'a' }).layers.map((layer) => layer.id)).toEqual(['b']);
    expect(applyEdit(applyEdit(edit, { type: 'setCrop', ratio: '16:9' }), { type: 'reset' })).toEqual(blankEdit(source));
  });
});

describe('undo and redo', () => {
  it('walk back and forth through the steps, and a new step drops what could be redone', () => {
    let history = startHistory(blankEdit(source));
    history = record(history, { type: 'addText', id: 't', text: 'Sale', color: '#ffffff' });
    history = record(history, { type: 'updateText', id: 't', patch: { size: 60 } });
    history = undo(history);
    expect(history.present.layers[0]).toMatchObject({ size: 48 });
    history = redo(history);
    expect(history.present.layers[0]).toMatchObject({ size: 60 });
    history = undo(undo(history));
    expect(history.present.layers).toEqual([]);
    expect(undo(history)).toBe(history);
    history = redo(history);
    history = record(history, { type: 'updateText', id: 't', patch: { color: '#000000' } });
    expect(history.future).toEqual([]);
    expect(redo(history)).toBe(history);
  });

  it('keep a whole drag as one step, and two drags as two', () => {
    let history = record(startHistory(blankEdit(source)), { type: 'addText', id: 't', text: 'Sale', color: '#ffffff' });
    for (let i = 1; i <= 30; i += 1) history = record(history, { type: 'place', id: 't', x: 0.5 + i / 100, gesture: 'drag-1' });
    for (let i = 1; i <= 10; i += 1) history = record(history, { type: 'place', id: 't', y: 0.5 - i / 100, gesture: 'drag-2' });
    expect(history.present.layers[0]).toMatchObject({ x: 0.8, y: 0.4 });
    history = undo(history);
    expect(history.present.layers[0]).toMatchObject({ x: 0.8, y: 0.5 });
    history = undo(history);
    expect(history.present.layers[0]).toMatchObject({ x: 0.5, y: 0.5 });
  });

  it('remember at most a hundred steps back', () => {
    let history = record(startHistory(blankEdit(source)), { type: 'addText', id: 't', text: 'Sale', color: '#ffffff' });
    for (let i = 0; i < HISTORY_LIMIT + 20; i += 1) history = record(history, { type: 'updateText', id: 't', patch: { size: 12 + (i % 60) } });
    expect(history.past).toHaveLength(HISTORY_LIMIT);
  });
});
