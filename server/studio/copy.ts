// The words the studio engine sets on cards and posters, in the seller's language.
import type { Locale } from '../../contract/locales';
import type { ShoeView } from '../../contract/enums';
import type { ShoeParamsPayload } from '../../contract/selection';

const copy = {
  en: {
    views: {
      right_45: 'Three-quarter',
      right_side: 'Right side',
      left_side: 'Left side',
      front: 'Front',
      back: 'Back',
      bottom: 'Sole',
      optional1: 'Detail',
      optional2: 'Detail',
    },
    params: { boot_height: 'Shaft', heel_height: 'Heel', boot_circumference: 'Shaft width', ankle_circumference: 'Ankle' },
    cm: 'cm',
    newIn: 'New season',
    palette: 'Colour palette',
    outfit: 'Outfit palette',
    fromShoe: 'From the shoe',
    toWear: 'To wear with it',
  },
  ru: {
    views: {
      right_45: 'Три четверти',
      right_side: 'Правая сторона',
      left_side: 'Левая сторона',
      front: 'Спереди',
      back: 'Сзади',
      bottom: 'Подошва',
      optional1: 'Деталь',
      optional2: 'Деталь',
    },
    params: { boot_height: 'Голенище', heel_height: 'Каблук', boot_circumference: 'Обхват голенища', ankle_circumference: 'Щиколотка' },
    cm: 'см',
    newIn: 'Новый сезон',
    palette: 'Палитра цвета',
    outfit: 'Палитра образа',
    fromShoe: 'Цвета обуви',
    toWear: 'С чем носить',
  },
  zh: {
    views: {
      right_45: '四分之三视角',
      right_side: '右侧',
      left_side: '左侧',
      front: '正面',
      back: '背面',
      bottom: '鞋底',
      optional1: '细节',
      optional2: '细节',
    },
    params: { boot_height: '筒高', heel_height: '跟高', boot_circumference: '筒围', ankle_circumference: '脚踝围' },
    cm: '厘米',
    newIn: '新季上市',
    palette: '色彩',
    outfit: '搭配色板',
    fromShoe: '鞋履配色',
    toWear: '推荐搭配',
  },
} satisfies Record<Locale, unknown>;

export const studioCopy = (locale: Locale) => copy[locale];

export function viewLabel(locale: Locale, view: ShoeView): string {
  return copy[locale].views[view];
}

/** The shoe's measurements as a line of copy: "Heel 3 cm · Shaft 12 cm". */
export function paramsLine(locale: Locale, params: ShoeParamsPayload): string {
  const c = copy[locale];
  return (Object.keys(c.params) as (keyof ShoeParamsPayload)[])
    .filter((key) => typeof params[key] === 'number' && params[key]! > 0)
    .map((key) => `${c.params[key]} ${params[key]} ${c.cm}`)
    .join(' · ');
}
