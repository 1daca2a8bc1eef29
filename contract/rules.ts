// The form rules' messages (SPEC §5). A rule in contract/ fails with `rule:<name>` and its values
// (`rule:too_long;count=100`); the page and the server each say it in the seller's language from
// the catalogue's `rules` texts (contract/locales/<lang>/rules.ts), so a rule and its words are
// written once.
import type ruRules from './locales/ru/rules';
import type { PluralBase } from './locales/shape';

export type RuleKey = PluralBase<keyof typeof ruRules.rules>;

const PREFIX = 'rule:';

/** The message a rule fails with; `vars` are filled in when it is shown (`count` picks the plural form). */
export function rule(key: RuleKey, vars: Record<string, number> = {}): string {
  const params = Object.entries(vars).map(([name, value]) => `;${name}=${value}`).join('');
  return `${PREFIX}${key}${params}`;
}

/** The catalogue key and values of a rule's message, or null for any other text. */
export function parseRule(message: string): { key: `rules.${RuleKey}`; vars: Record<string, number> } | null {
  if (!message.startsWith(PREFIX)) return null;
  const [name = '', ...params] = message.slice(PREFIX.length).split(';');
  const vars = Object.fromEntries(
    params.map((param) => {
      const [key = '', value = ''] = param.split('=');
      return [key, Number(value)];
    }),
  );
  return { key: `rules.${name as RuleKey}`, vars };
}
