import 'i18next';
import type core from '../contract/locales/ru/core';
import type account from '../contract/locales/ru/account';
import type task from '../contract/locales/ru/task';
import type history from '../contract/locales/ru/history';
import type rules from '../contract/locales/ru/rules';
import type billing from '../contract/locales/ru/billing';
import type publisher from '../contract/locales/ru/publisher';

/** Every text the page says: the catalogue's page namespaces, Russian being the type source. */
export type PageTexts = typeof core & typeof account & typeof task & typeof history & typeof rules & typeof billing & typeof publisher;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: PageTexts };
  }
}
