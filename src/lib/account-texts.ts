// Adds the Russian texts of the account screens (the catalogue's account, task, history, rules, billing and
// publisher namespaces) when one of them loads. Russian is the fallback language, so these must be present
// whatever the seller's language; en and zh load theirs whole at start-up (lib/i18n.ts).
import account from '../../contract/locales/ru/account';
import task from '../../contract/locales/ru/task';
import history from '../../contract/locales/ru/history';
import rules from '../../contract/locales/ru/rules';
import billing from '../../contract/locales/ru/billing';
import publisher from '../../contract/locales/ru/publisher';
import { i18next } from './i18n';

for (const texts of [account, task, history, rules, billing, publisher]) i18next.addResourceBundle('ru', 'translation', texts, true, false);
