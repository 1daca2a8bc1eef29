// Texts the server sends to people — its answers and errors, the form rules, the e-mails and the
// words the studio engine sets on its pictures — from the one catalogue (contract/locales), said
// through i18next as the page says its own: the same {{placeholders}}, and counted texts in the
// plural forms of the language (`count`).
import i18next from 'i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../contract/locales';
import type { KeyOf, PluralBase } from '../../contract/locales/shape';
import { parseRule } from '../../contract/rules';
import ruServer from '../../contract/locales/ru/server';
import ruRules from '../../contract/locales/ru/rules';
import ruMail from '../../contract/locales/ru/mail';
import ruStudio from '../../contract/locales/ru/studio';
import enServer from '../../contract/locales/en/server';
import enRules from '../../contract/locales/en/rules';
import enMail from '../../contract/locales/en/mail';
import enStudio from '../../contract/locales/en/studio';
import zhServer from '../../contract/locales/zh/server';
import zhRules from '../../contract/locales/zh/rules';
import zhMail from '../../contract/locales/zh/mail';
import zhStudio from '../../contract/locales/zh/studio';

/** The namespaces the server says, in each language. */
const catalogue: Record<Locale, object[]> = {
  ru: [ruServer, ruRules, ruMail, ruStudio],
  en: [enServer, enRules, enMail, enStudio],
  zh: [zhServer, zhRules, zhMail, zhStudio],
};

type ServerTexts = typeof ruServer & typeof ruRules & typeof ruMail & typeof ruStudio;
export type TextKey = KeyOf<ServerTexts>;
/** A message of an answer or an error, by the bare name the code and the database keep: 'NOT_FOUND'. */
export type MessageKey = PluralBase<keyof typeof ruServer.messages>;
type Vars = Record<string, string | number>;

const instance = i18next.createInstance();
void instance.init({
  initAsync: false,
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: LOCALES,
  resources: Object.fromEntries(LOCALES.map((locale) => [locale, { translation: Object.assign({}, ...catalogue[locale]) }])),
  // The texts go into JSON and e-mails that escape for themselves; a value never becomes markup.
  interpolation: { escapeValue: false },
  nsSeparator: false,
});
// Keys are typed here (TextKey) rather than through i18next's own typing, which belongs to the page.
type Say = (key: string, vars: Vars) => string;
const says = Object.fromEntries(LOCALES.map((locale) => [locale, instance.getFixedT(locale)])) as unknown as Record<Locale, Say>;

const isMessageKey = (value: string): value is MessageKey => instance.exists(`messages.${value}`, { lng: DEFAULT_LOCALE, count: 1 });

/** A text of the catalogue in a language; a `count` among the values picks the plural form. */
export function text(locale: Locale, key: TextKey, vars: Vars = {}): string {
  return says[locale](key, vars);
}

/** A message in a language. A value that is itself a message's name (an option's reason) is said too. */
export function translate(locale: Locale, key: MessageKey, vars: Vars = {}): string {
  const said = Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [name, typeof value === 'string' && isMessageKey(value) ? translate(locale, value) : value]),
  );
  return text(locale, `messages.${key}`, said);
}

/** A form rule's message (`rule:too_long;count=100`) in a language; any other text is returned as it is. */
export function ruleText(locale: Locale, message: string): string {
  const rule = parseRule(message);
  return rule ? text(locale, rule.key, rule.vars) : message;
}
