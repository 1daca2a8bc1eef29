// SPEC §5's rules for a task's photos and where picked files go.
import { describe, expect, it } from 'vitest';
import { assignToSlots, viewsProblem } from '../../contract/views';
import { isAcceptedPhoto } from '../../contract/capture';

describe('task photos', () => {
  it('need at least 5 views with a photo', () => {
    expect(viewsProblem([])).toBe('viewSize');
    expect(viewsProblem(['right_45', 'right_side', 'left_side', 'front'])).toBe('viewSize');
  });

  it('need every required view, whatever else is there', () => {
    expect(viewsProblem(['right_45', 'right_side', 'left_side', 'front', 'bottom'])).toBe('required');
    expect(viewsProblem(['right_45', 'right_side', 'left_side', 'front', 'bottom', 'optional1', 'optional2'])).toBe('required');
    expect(viewsProblem(['right_45', 'right_side', 'left_side', 'front', 'back'])).toBeNull();
    expect(viewsProblem(['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'])).toBeNull();
  });
});

describe('batch assignment', () => {
  it('fills empty slots in the guided order, required views first', () => {
    const { placed, leftOver } = assignToSlots(['a', 'b', 'c'], []);
    expect(placed).toEqual([
      ['right_45', 'a'],
      ['right_side', 'b'],
      ['left_side', 'c'],
    ]);
    expect(leftOver).toEqual([]);
  });

  it('skips filled slots and leaves over what does not fit', () => {
    const files = ['1', '2', '3', '4', '5', '6', '7'];
    const { placed, leftOver } = assignToSlots(files, ['right_45', 'front']);
    expect(placed.map(([view]) => view)).toEqual(['right_side', 'left_side', 'back', 'bottom', 'optional1', 'optional2']);
    expect(leftOver).toEqual(['7']);
  });
});

describe('accepted files', () => {
  it('are JPEG and PNG only, by type or else by extension', () => {
    expect(isAcceptedPhoto({ name: 'a.jpg', type: 'image/jpeg' })).toBe(true);
    expect(isAcceptedPhoto({ name: 'a.png', type: 'image/png' })).toBe(true);
    expect(isAcceptedPhoto({ name: 'IMG_1.HEIC', type: 'image/heic' })).toBe(false);
    expect(isAcceptedPhoto({ name: 'shot.jpeg', type: '' })).toBe(true);
    expect(isAcceptedPhoto({ name: 'shot.heic', type: '' })).toBe(false);
    expect(isAcceptedPhoto({ name: 'a.webp', type: 'image/webp' })).toBe(false);
  });
});
