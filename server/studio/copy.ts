// The words the studio engine sets on cards and posters, in the seller's language (the
// catalogue's `studio` texts).
import type { Locale } from '../../contract/locales';
import type { ShoeView } from '../../contract/enums';
import type { ShoeParamsPayload } from '../../contract/selection';
import { text } from '../lib/i18n';

/** The measurements in the order a poster lists them. */
const PARAMS: readonly (keyof ShoeParamsPayload)[] = ['boot_height', 'heel_height', 'boot_circumference', 'ankle_circumference'];

export const studioCopy = (locale: Locale) => ({
  newIn: text(locale, 'studio.newIn'),
  fromShoe: text(locale, 'studio.fromShoe'),
  toWear: text(locale, 'studio.toWear'),
});

export function viewLabel(locale: Locale, view: ShoeView): string {
  return text(locale, `studio.views.${view}`);
}

/** The shoe's measurements as a line of copy: "Heel 3 cm · Shaft 12 cm". */
export function paramsLine(locale: Locale, params: ShoeParamsPayload): string {
  return PARAMS.filter((key) => typeof params[key] === 'number' && params[key]! > 0)
    .map((key) => text(locale, 'studio.measure', { name: text(locale, `studio.params.${key}`), value: params[key]! }))
    .join(' · ');
}
