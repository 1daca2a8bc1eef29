// Shoe types a seller can choose and which parameters of SPEC §3 (cm) apply to each.
import type { Locale } from '../../contract/locales';
import type { ShoeParam } from '../../contract/materials';

const CATEGORIES: { id: string; params: ShoeParam[]; name: Record<Locale, string> }[] = [
  { id: 'sneakers', params: [], name: { ru: 'Кроссовки и кеды', en: 'Sneakers', zh: '运动鞋' } },
  { id: 'shoes', params: ['heelHeight'], name: { ru: 'Туфли и лоферы', en: 'Shoes and loafers', zh: '皮鞋和乐福鞋' } },
  { id: 'heels', params: ['heelHeight'], name: { ru: 'Туфли на каблуке', en: 'Heels', zh: '高跟鞋' } },
  { id: 'sandals', params: ['heelHeight'], name: { ru: 'Сандалии и босоножки', en: 'Sandals', zh: '凉鞋' } },
  {
    id: 'ankle_boots',
    params: ['shaftHeight', 'heelHeight', 'ankleLatitude'],
    name: { ru: 'Ботильоны и ботинки', en: 'Ankle boots', zh: '短靴' },
  },
  {
    id: 'boots',
    params: ['shaftHeight', 'heelHeight', 'shaftLatitude', 'ankleLatitude'],
    name: { ru: 'Сапоги', en: 'Boots', zh: '长靴' },
  },
];

export function shoeCategories(locale: Locale) {
  return CATEGORIES.map((c) => ({ id: c.id, name: c.name[locale], params: c.params }));
}
