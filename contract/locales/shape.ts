// What every language's catalogue must hold: the Russian file of the same namespace is the type
// source, and a counted text (i18next's `key_one`, `key_few`…) carries exactly the plural forms its
// language has (Intl.PluralRules): Russian one/few/many/other, English one/other, Chinese other.
import type { Locale } from './index';

export type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

/** The plural forms each language's counted texts carry. */
export interface PluralForms {
  ru: 'one' | 'few' | 'many' | 'other';
  en: 'one' | 'other';
  zh: 'other';
}

/** A key without its plural form: `tokens_few` → `tokens`. */
export type PluralBase<K> = K extends `${infer Base}_${PluralForm}` ? Base : K;

/** The Russian namespace `T` as language `L` must translate it. */
export type Translated<T, L extends Locale> = {
  [K in keyof T as K extends `${string}_${PluralForm}` ? (K extends `${string}_${PluralForms[L]}` ? K : never) : K]: T[K] extends string
    ? string
    : Translated<T[K], L>;
};

/** Every key of a namespace as code names it: dotted, counted texts by their base. */
export type KeyOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${PluralBase<K>}` : KeyOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
