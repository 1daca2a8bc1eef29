import { describe, expect, it } from 'vitest';
import { isLocale, localeFromAcceptLanguage } from '../../contract/locales';

describe('localeFromAcceptLanguage', () => {
  it.each([
    [undefined, 'ru'],
    ['', 'ru'],
    ['en-US,en;q=0.9', 'en'],
    ['zh-CN', 'zh'],
    ['de-DE,de;q=0.9', 'ru'],
    ['de;q=1, zh;q=0.5, en;q=0.8', 'en'],
    ['fr, ZH-tw;q=0.9', 'zh'],
    ['en;q=0, zh', 'zh'],
    ['*', 'ru'],
  ])('%s → %s', (header, expected) => {
    expect(localeFromAcceptLanguage(header)).toBe(expected);
  });
});

describe('isLocale', () => {
  it('accepts exactly the three languages', () => {
    expect(['ru', 'en', 'zh'].every(isLocale)).toBe(true);
    expect(isLocale('de')).toBe(false);
    expect(isLocale(null)).toBe(false);
  });
});
