// Shoe types a seller can choose and which parameters of SPEC §3 (cm) apply to each; their names
// are the catalogue's `shoeCategories`.
import type { Locale } from '../../contract/locales';
import type { ShoeParam } from '../../contract/materials';
import type ruServer from '../../contract/locales/ru/server';
import { text } from '../lib/i18n';

const CATEGORIES: { id: keyof typeof ruServer.shoeCategories; params: ShoeParam[] }[] = [
  { id: 'sneakers', params: [] },
  { id: 'shoes', params: ['heelHeight'] },
  { id: 'heels', params: ['heelHeight'] },
  { id: 'sandals', params: ['heelHeight'] },
  { id: 'ankle_boots', params: ['shaftHeight', 'heelHeight', 'ankleLatitude'] },
  { id: 'boots', params: ['shaftHeight', 'heelHeight', 'shaftLatitude', 'ankleLatitude'] },
];

export function shoeCategories(locale: Locale) {
  return CATEGORIES.map((c) => ({ id: c.id, name: text(locale, `shoeCategories.${c.id}`), params: c.params }));
}
