// Adds the Russian texts of the account screens when one of them loads. Russian is the fallback
// language, so these must be present whatever the seller's language; en and zh carry theirs in
// their own (lazily loaded) files.
import ruAccount from '../locales/ru-account';
import { i18next } from './i18n';

i18next.addResourceBundle('ru', 'translation', ruAccount, true, false);
