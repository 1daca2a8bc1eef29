// What the publish dialog works out before sending: whether a result fits a platform's rules,
// the card as it will be, and what retrying a publication's failed results asks for.
import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../contract/assets';
import type { Publication } from '../../../contract/publisher';
import { cardAfter, fitProblem, retryRequest } from '../../../src/publisher/rules';

const WB = { max_images: 30, min_width: 700, min_height: 900, max_image_bytes: 32 << 20, formats: ['jpeg', 'png', 'webp'] as ('jpeg' | 'png' | 'webp')[], max_video_bytes: 50 << 20, replaces_all: true, white_main: false };
const OZON = { ...WB, min_width: 200, min_height: 200, formats: ['jpeg', 'png'] as ('jpeg' | 'png' | 'webp')[], max_video_bytes: null };

const asset = (id: string, fileType = 'image/jpeg', width = 1200, height = 1600) => ({ id, file_type: fileType, width, height, file_url: `/f/${id}`, poster_url: null }) as unknown as Asset;

describe('whether a result fits a platform', () => {
  it('names a picture too small, a format not taken and a video where none goes', () => {
    expect(fitProblem(asset('a'), WB)).toBeNull();
    expect(fitProblem(asset('a', 'image/jpeg', 600, 800), WB)).toEqual({ key: 'tooSmall', vars: { min: '700×900', size: '600×800' } });
    expect(fitProblem(asset('a', 'image/webp'), OZON)).toEqual({ key: 'format', vars: { formats: 'JPEG, PNG' } });
    expect(fitProblem(asset('v', 'video/mp4', 720, 1280), WB)).toBeNull();
    expect(fitProblem(asset('v', 'video/mp4', 720, 1280), OZON)).toEqual({ key: 'noVideo', vars: {} });
  });
});

describe('the card after publishing', () => {
  const ours = [asset('a'), asset('b'), asset('v', 'video/mp4')];
  it('puts the pictures after the card’s own, the video aside', () => {
    expect(cardAfter(2, ours, 'gallery', 'append').map((tile) => (tile.kind === 'current' ? `current ${tile.count}` : `${tile.asset.id}${tile.main ? ' main' : ''}`))).toEqual(['current 2', 'a', 'b']);
  });
  it('puts the first first as the main picture, or ours alone in place of the card’s', () => {
    const shown = (placement: 'main' | 'gallery', mode: 'append' | 'replace', current = 2) =>
      cardAfter(current, ours, placement, mode).map((tile) => (tile.kind === 'current' ? `current ${tile.count}` : `${tile.asset.id}${tile.main ? ' main' : ''}`));
    expect(shown('main', 'append')).toEqual(['a main', 'b', 'current 2']);
    expect(shown('gallery', 'replace')).toEqual(['a main', 'b']);
    expect(shown('gallery', 'append', 0)).toEqual(['a main', 'b']);
  });
});

describe('retrying a publication’s failed results', () => {
  const publication = (items: Partial<Publication['items'][number]>[], placement: 'main' | 'gallery' = 'gallery'): Publication => ({
    id: '7f3e2f4c-1111-4222-8333-944445555666',
    platform: 'wildberries',
    connection_id: '1f3e2f4c-1111-4222-8333-944445555666',
    product: { id: '123', article: 'ART', title: 'Кеды' },
    placement,
    mode: 'replace',
    status: 'partial',
    message: null,
    created_at: '2026-11-27T10:00:00Z',
    finished_at: '2026-11-27T10:01:00Z',
    items: items.map((item, position) => ({ position, asset_id: `a${position}`, kind: 'image', status: 'applied', message: null, remote_url: null, ...item })),
  });

  it('sends the failed ones again, added to the card, keeping the main place when the main one failed', () => {
    expect(retryRequest(publication([{}, { status: 'failed' }, { status: 'failed', asset_id: null }]))).toMatchObject({ asset_ids: ['a1'], placement: 'gallery', mode: 'append', product_id: '123' });
    expect(retryRequest(publication([{ status: 'failed' }, {}], 'main'))).toMatchObject({ asset_ids: ['a0'], placement: 'main', mode: 'append' });
    expect(retryRequest(publication([{ status: 'failed' }, {}, { status: 'failed' }], 'gallery'))!.asset_ids).toEqual(['a0', 'a2']);
  });

  it('offers nothing when nothing failed, a deleted result failed, or the store is gone', () => {
    expect(retryRequest(publication([{}, {}]))).toBeNull();
    expect(retryRequest(publication([{ status: 'failed', asset_id: null }]))).toBeNull();
    expect(retryRequest({ ...publication([{ status: 'failed' }]), connection_id: null })).toBeNull();
  });

});
