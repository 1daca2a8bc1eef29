// Whether this server can make anything of a content type (GET /content/config's offers).
import type { CategoryOffer } from '../../../contract/content';
import type { ContentType } from '../../../contract/enums';
import { CATEGORIES_OF } from '../../../contract/selection';

/** Why nothing of a content type can be made here (the first category's reason), or null when something can. */
export function unavailableReason(type: ContentType, offers: readonly CategoryOffer[]): string | null {
  const own = offers.filter((offer) => CATEGORIES_OF[type].includes(offer.category));
  if (own.length === 0 || own.some((offer) => offer.available)) return null;
  return own[0]!.reason ?? '';
}
