// i18next set-up: Russian's start-up texts (the catalogue's core namespace) are bundled, and Russian
// is the fallback; the account screens add theirs as they load (lib/account-texts.ts). English and
// Chinese load on demand, every page namespace at once. Changing the language persists the choice
// and reloads the page (SPEC §1).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../contract/locales';
import core from '../../contract/locales/ru/core';
import { PREFERENCE_KEYS, readPreference, writePreference } from './preferences';

type Texts = { default: object };

const loaders: Record<Exclude<Locale, 'ru'>, () => Promise<Texts[]>> = {
  en: () =>
    Promise.all([
      import('../../contract/locales/en/core'),
      import('../../contract/locales/en/account'),
      import('../../contract/locales/en/task'),
      import('../../contract/locales/en/history'),
      import('../../contract/locales/en/rules'),
      import('../../contract/locales/en/billing'),
      import('../../contract/locales/en/publisher'),
    ]),
  zh: () =>
    Promise.all([
      import('../../contract/locales/zh/core'),
      import('../../contract/locales/zh/account'),
      import('../../contract/locales/zh/task'),
      import('../../contract/locales/zh/history'),
      import('../../contract/locales/zh/rules'),
      import('../../contract/locales/zh/billing'),
      import('../../contract/locales/zh/publisher'),
    ]),
};

export function storedLocale(): Locale {
  const value = readPreference(PREFERENCE_KEYS.locale);
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

export async function initI18n(locale: Locale = storedLocale()): Promise<typeof i18next> {
  const resources: Record<string, { translation: object }> = { ru: { translation: core } };
  if (locale !== 'ru') {
    try {
      // Each namespace holds its own sections, so they join without overlapping.
      resources[locale] = { translation: Object.assign({}, ...(await loaders[locale]()).map((texts) => texts.default)) };
    } catch {
      // The language file could not load (offline before it was cached): Russian still works.
    }
  }
  await i18next.use(initReactI18next).init({
    lng: resources[locale] ? locale : DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: ['ru', 'en', 'zh'],
    resources: resources as never,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: import.meta.env.DEV,
    missingKeyHandler: (_lngs, _ns, key) => {
      console.error(`Missing translation: ${key}`);
    },
  });
  document.documentElement.lang = i18next.language;
  return i18next;
}

export function currentLocale(): Locale {
  const language = i18next.language;
  return isLocale(language) ? language : DEFAULT_LOCALE;
}

export function changeLocale(locale: Locale, reload: () => void = () => window.location.reload()) {
  if (locale === currentLocale()) return;
  writePreference(PREFERENCE_KEYS.locale, locale);
  reload();
}

export { i18next };
