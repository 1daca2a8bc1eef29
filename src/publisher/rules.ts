// What the publish dialog works out before anything is sent, as plain functions the unit tests
// check: whether a result fits a platform's rules (the server checks again, with the bytes), what
// the card will hold afterwards, and what "retry the failed ones" asks for.
import type { Asset } from '../../contract/assets';
import type { PlatformInfo, Publication, PublishRequest } from '../../contract/publisher';

type Rules = PlatformInfo['rules'];

const FORMATS: Record<string, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

/** Why the platform would refuse this result, as a text key and its values; null when it fits. */
export function fitProblem(
  asset: Pick<Asset, 'file_type' | 'width' | 'height'>,
  rules: Rules,
): { key: 'tooSmall' | 'noVideo' | 'format'; vars: Record<string, string> } | null {
  if (asset.file_type.startsWith('video/')) return rules.max_video_bytes === null ? { key: 'noVideo', vars: {} } : null;
  const format = FORMATS[asset.file_type];
  if (!format || !(rules.formats as string[]).includes(format)) return { key: 'format', vars: { formats: rules.formats.map((f) => f.toUpperCase()).join(', ') } };
  if (asset.width < rules.min_width || asset.height < rules.min_height) {
    return { key: 'tooSmall', vars: { min: `${rules.min_width}×${rules.min_height}`, size: `${asset.width}×${asset.height}` } };
  }
  return null;
}

/** One tile of the card as it will be: one of the card's own pictures (counted), or a result. */
export type CardTile = { kind: 'current'; count: number } | { kind: 'ours'; asset: Asset; main: boolean };

/**
 * The card's pictures after publishing `ours` (the pictures among them; a video goes to the card's
 * video place): in place of the card's own, before them (the first becoming the main picture), or after.
 */
export function cardAfter(current: number, ours: readonly Asset[], placement: PublishRequest['placement'], mode: PublishRequest['mode']): CardTile[] {
  const pictures = ours.filter((asset) => !asset.file_type.startsWith('video/'));
  const kept: CardTile[] = mode === 'replace' || current === 0 ? [] : [{ kind: 'current', count: current }];
  const first = mode === 'replace' || placement === 'main' || current === 0;
  const mine: CardTile[] = pictures.map((asset, index) => ({ kind: 'ours', asset, main: first && index === 0 }));
  return first ? [...mine, ...kept] : [...kept, ...mine];
}

/**
 * The request that sends a publication's failed results again: onto the same card, added to what
 * is there now (the ones that were applied stay), the main picture again main if it failed.
 * Null when nothing failed that can be sent again (a deleted result cannot).
 */
export function retryRequest(publication: Publication): PublishRequest | null {
  if (publication.connection_id === null) return null;
  const failed = publication.items.filter((item) => item.status === 'failed' && item.asset_id !== null);
  if (failed.length === 0) return null;
  const mainFailed = publication.placement === 'main' && failed.some((item) => item.position === 0);
  return {
    connection_id: publication.connection_id,
    product_id: publication.product.id,
    product_article: publication.product.article,
    product_title: publication.product.title,
    asset_ids: failed.map((item) => item.asset_id!),
    placement: mainFailed ? 'main' : 'gallery',
    mode: 'append',
  };
}

/** Whether a platform's publications are still moving (the screen keeps reading them). */
export function isOpen(publication: Pick<Publication, 'status'>): boolean {
  return publication.status === 'queued' || publication.status === 'running';
}

