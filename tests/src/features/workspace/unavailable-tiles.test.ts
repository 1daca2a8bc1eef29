// A workspace tile is unavailable only when no category of its content type can be made here,
// and then it carries the first category's reason.
import { describe, expect, it } from 'vitest';
import type { CategoryOffer } from '../../../../contract/content';
import { unavailableReason } from '../../../../src/features/workspace/availability';

const offer = (category: CategoryOffer['category'], available: boolean): CategoryOffer => ({
  category,
  content_module: category === 'HALF_BODY' || category === 'FULL_BODY' ? 'REAL_PERSON_IMAGE' : 'PRODUCT_IMAGE',
  price: 4,
  available,
  reason: available ? null : `no ${category}`,
  sub_options: [],
  custom: { available: false, reason: 'no' },
});

describe('unavailable tiles', () => {
  it('is unavailable with the first reason when no category of the type can be made', () => {
    expect(unavailableReason('person', [offer('HALF_BODY', false), offer('FULL_BODY', false), offer('PRODUCT', true)])).toBe('no HALF_BODY');
  });

  it('is available when any of its categories can be made, or when nothing is known yet', () => {
    expect(unavailableReason('person', [offer('HALF_BODY', false), offer('FULL_BODY', true)])).toBeNull();
    expect(unavailableReason('product', [offer('HALF_BODY', false), offer('PRODUCT', true)])).toBeNull();
    expect(unavailableReason('person', [])).toBeNull();
  });
});
