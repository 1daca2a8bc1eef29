// The texts of the form rules (SPEC §5), in every language. A rule in contract/ fails with
// `rule:<name>`; the page and the server both turn that into the seller's language here, so a
// rule and its words are written once.
import { DEFAULT_LOCALE, type Locale } from './locales';
import { fillTemplate } from './template';

const ru = {
  required: 'Заполните это поле.',
  identifier_required: 'Введите e-mail или имя пользователя.',
  identifier_length: 'Имя пользователя — от 3 до 20 символов.',
  email: 'Введите корректный e-mail.',
  username: 'Имя пользователя — от 3 до 20 букв или цифр.',
  password: 'Пароль — от 8 до 20 символов, с буквами, цифрами и символами.',
  password_length: 'Пароль — от 8 до 20 символов.',
  current_password: 'Текущий пароль — не короче 8 символов.',
  password_mismatch: 'Пароли не совпадают.',
  code: 'Код — ровно 6 цифр.',
  channel: 'Выберите, откуда вы о нас узнали.',
  channel_extra: 'Уточните, пожалуйста.',
  too_long: 'Слишком длинный текст (не больше {max} символов).',
  phone: 'Введите номер телефона.',
  store_count: 'Укажите число магазинов — целое число от 0.',
  text: 'Текст содержит недопустимые символы.',
  too_deep: 'Слишком глубокая вложенность (не больше {max} уровней).',
};

export type RuleKey = keyof typeof ru;

const en: Record<RuleKey, string> = {
  required: 'Please fill in this field.',
  identifier_required: 'Enter email or username.',
  identifier_length: 'A username has 3 to 20 characters.',
  email: 'Enter a valid e-mail address.',
  username: 'A username has 3 to 20 letters or digits.',
  password: 'A password has 8 to 20 characters with letters, numbers and symbols.',
  password_length: 'A password has 8 to 20 characters.',
  current_password: 'The current password has at least 8 characters.',
  password_mismatch: 'Passwords do not match.',
  code: 'The code is exactly 6 digits.',
  channel: 'Please choose how you heard about us.',
  channel_extra: 'Please tell us more.',
  too_long: 'The text is too long (at most {max} characters).',
  phone: 'Enter a phone number.',
  store_count: 'Enter the number of stores, a whole number from 0.',
  text: 'The text holds characters that cannot be used.',
  too_deep: 'Nested too deep (at most {max} levels).',
};

const zh: Record<RuleKey, string> = {
  required: '请填写此项。',
  identifier_required: '请输入邮箱或用户名。',
  identifier_length: '用户名为 3 到 20 个字符。',
  email: '请输入有效的邮箱地址。',
  username: '用户名为 3 到 20 个字母或数字。',
  password: '密码为 8 到 20 个字符，需包含字母、数字和符号。',
  password_length: '密码为 8 到 20 个字符。',
  current_password: '当前密码至少 8 个字符。',
  password_mismatch: '两次输入的密码不一致。',
  code: '验证码为 6 位数字。',
  channel: '请选择您了解我们的渠道。',
  channel_extra: '请补充说明。',
  too_long: '文本过长（最多 {max} 个字符）。',
  phone: '请输入手机号码。',
  store_count: '请输入店铺数量（不小于 0 的整数）。',
  text: '文本包含无法使用的字符。',
  too_deep: '嵌套层级过深（最多 {max} 层）。',
};

const catalogue: Record<Locale, Record<RuleKey, string>> = { ru, en, zh };

const PREFIX = 'rule:';

/** The message a rule fails with; `vars` are filled in when it is shown. */
export function rule(key: RuleKey, vars: Record<string, number> = {}): string {
  const params = Object.entries(vars).map(([name, value]) => `;${name}=${value}`).join('');
  return `${PREFIX}${key}${params}`;
}

/** A rule's message in a language; any other text is returned as it is. */
export function ruleText(locale: Locale, message: string): string {
  if (!message.startsWith(PREFIX)) return message;
  const [key = '', ...params] = message.slice(PREFIX.length).split(';');
  const template = catalogue[locale][key as RuleKey] ?? catalogue[DEFAULT_LOCALE][key as RuleKey];
  if (!template) return message;
  return fillTemplate(template, Object.fromEntries(params.map((p) => p.split('=') as [string, string])));
}
