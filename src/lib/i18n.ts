// i18next set-up: Russian is bundled and is the fallback; English and Chinese load on demand.
// Changing the language persists the choice and reloads the page (SPEC §1).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../contract/locales';
import ru from '../locales/ru';
import { PREFERENCE_KEYS, readPreference, writePreference } from './preferences';

const loaders: Record<Exclude<Locale, 'ru'>, () => Promise<{ default: unknown }>> = {
  en: () => import('../locales/en'),
  zh: () => import('../locales/zh'),
};

export function storedLocale(): Locale {
  const value = readPreference(PREFERENCE_KEYS.locale);
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

export async function initI18n(locale: Locale = storedLocale()): Promise<typeof i18next> {
  const resources: Record<string, { translation: unknown }> = { ru: { translation: ru } };
  if (locale !== 'ru') {
    try {
      resources[locale] = { translation: (await loaders[locale]()).default };
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
