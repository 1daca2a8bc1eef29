// SPEC §5's rules for the account forms, as the forms and the server both apply them.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  changePasswordSchema,
  channelTextRule,
  codeFormSchema,
  feedbackRequestSchema,
  forgotRequestSchema,
  loginRequestSchema,
  newPasswordFormSchema,
  registerFormSchema,
  toRegisterRequest,
  userInfoFormSchema,
} from '../../contract/auth';
import { ruleText } from '../../server/lib/i18n';

/** The first message per field, in English. */
function problems(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || '(form)';
    out[field] ??= ruleText('en', issue.message);
  }
  return out;
}

const validRegistration = {
  email: 'anna@shop.example',
  username: 'anna',
  password: 'Shoes4ever!',
  password_confirm: 'Shoes4ever!',
  channel_key: 'friend',
  channel_extra: '',
};

describe('login', () => {
  const login = (username_or_email: string, password = 'Shoes4ever!') =>
    problems(loginRequestSchema, { username_or_email, password, remember_me: true });

  it('requires an identifier', () => {
    expect(login('  ')).toEqual({ username_or_email: 'Enter email or username.' });
  });

  it('checks an identifier with @ as an e-mail', () => {
    expect(login('anna@shop')).toEqual({ username_or_email: 'Enter a valid e-mail address.' });
    expect(login('anna@shop.example')).toEqual({});
  });

  it('checks any other identifier as a username of 3 to 20 characters', () => {
    expect(login('an')).toEqual({ username_or_email: 'A username has 3 to 20 characters.' });
    expect(login('a'.repeat(21))).toEqual({ username_or_email: 'A username has 3 to 20 characters.' });
    expect(login('ann')).toEqual({});
    expect(login('a'.repeat(20))).toEqual({});
  });

  it('requires a password of 8 to 20 with letters, numbers and symbols', () => {
    expect(login('anna', '')).toEqual({ password: 'Please fill in this field.' });
    const rule = 'A password has 8 to 20 characters with letters, numbers and symbols.';
    expect(login('anna', 'Ab1!xyz')).toEqual({ password: rule }); // 7
    expect(login('anna', 'Ab1!'.repeat(5) + 'x')).toEqual({ password: rule }); // 21
    expect(login('anna', 'abcdefgh1')).toEqual({ password: rule }); // no symbol
    expect(login('anna', 'abcdefgh!')).toEqual({ password: rule }); // no digit
    expect(login('anna', '12345678!')).toEqual({ password: rule }); // no letter
    expect(login('anna', 'Пароль12!')).toEqual({}); // letters of any alphabet
    expect(login('anna', 'Ab1!'.repeat(5))).toEqual({}); // 20
  });

  it('keeps remember-me off unless asked', () => {
    const parsed = loginRequestSchema.parse({ username_or_email: 'anna', password: 'Shoes4ever!' });
    expect(parsed.remember_me).toBe(false);
  });
});

describe('registration', () => {
  it('accepts a complete form and sends the channel as JSON text with key and extra', () => {
    const form = registerFormSchema.parse({ ...validRegistration, channel_key: 'promoter', channel_extra: ' Irina ' });
    const request = toRegisterRequest(form);
    expect(JSON.parse(request.channel)).toEqual({ key: 'promoter', extra: 'Irina' });
    expect(channelTextRule.parse(request.channel)).toEqual({ key: 'promoter', extra: 'Irina' });
  });

  it('drops free text for channels that take none', () => {
    const form = registerFormSchema.parse({ ...validRegistration, channel_key: 'online', channel_extra: 'left over' });
    expect(JSON.parse(toRegisterRequest(form).channel)).toEqual({ key: 'online', extra: '' });
  });

  it('requires a valid e-mail', () => {
    expect(problems(registerFormSchema, { ...validRegistration, email: '' })).toEqual({ email: 'Please fill in this field.' });
    expect(problems(registerFormSchema, { ...validRegistration, email: 'anna.shop' })).toEqual({ email: 'Enter a valid e-mail address.' });
  });

  it('takes a username of 3 to 20 letters or digits', () => {
    const rule = { username: 'A username has 3 to 20 letters or digits.' };
    expect(problems(registerFormSchema, { ...validRegistration, username: 'ab' })).toEqual(rule);
    expect(problems(registerFormSchema, { ...validRegistration, username: 'anna_shop' })).toEqual(rule);
    expect(problems(registerFormSchema, { ...validRegistration, username: 'x'.repeat(21) })).toEqual(rule);
    expect(problems(registerFormSchema, { ...validRegistration, username: 'Анна2024' })).toEqual({});
  });

  it('shows a mismatched confirmation together with other mistakes', () => {
    expect(problems(registerFormSchema, { ...validRegistration, username: 'a', password_confirm: 'Shoes4ever?' })).toEqual({
      username: 'A username has 3 to 20 letters or digits.',
      password_confirm: 'Passwords do not match.',
    });
    expect(problems(registerFormSchema, { ...validRegistration, password_confirm: '' })).toEqual({
      password_confirm: 'Please fill in this field.',
    });
  });

  it('requires a channel, and text for a promoter or "other"', () => {
    expect(problems(registerFormSchema, { ...validRegistration, channel_key: '' })).toEqual({
      channel_key: 'Please choose how you heard about us.',
    });
    for (const key of ['promoter', 'other']) {
      expect(problems(registerFormSchema, { ...validRegistration, channel_key: key, channel_extra: '  ' })).toEqual({
        channel_extra: 'Please tell us more.',
      });
    }
  });

  it('refuses channel text that is not JSON of a known channel', () => {
    expect(channelTextRule.safeParse('friend').success).toBe(false);
    expect(channelTextRule.safeParse('{"key":"radio","extra":""}').success).toBe(false);
    expect(channelTextRule.safeParse('{"key":"other","extra":""}').success).toBe(false);
  });
});

describe('forgot password', () => {
  it('needs a valid e-mail', () => {
    expect(problems(forgotRequestSchema, { email: 'nope' })).toEqual({ email: 'Enter a valid e-mail address.' });
  });

  it('needs exactly 6 digits', () => {
    const rule = { code: 'The code is exactly 6 digits.' };
    expect(problems(codeFormSchema, { code: '12345' })).toEqual(rule);
    expect(problems(codeFormSchema, { code: '1234567' })).toEqual(rule);
    expect(problems(codeFormSchema, { code: '12a456' })).toEqual(rule);
    expect(problems(codeFormSchema, { code: ' 123456 ' })).toEqual({});
  });

  it('needs a new password of 8 to 20 and a matching confirmation', () => {
    expect(problems(newPasswordFormSchema, { new_password: 'short1!', confirm_password: 'short1!' })).toEqual({
      new_password: 'A password has 8 to 20 characters with letters, numbers and symbols.',
    });
    expect(problems(newPasswordFormSchema, { new_password: 'Fresh-start9', confirm_password: 'Fresh-start8' })).toEqual({
      confirm_password: 'Passwords do not match.',
    });
  });
});

describe('change password', () => {
  const change = (current_password: string, new_password: string, confirm_password = new_password) =>
    problems(changePasswordSchema, { current_password, new_password, confirm_password });

  it('requires all three fields', () => {
    expect(change('', '', '')).toEqual({
      current_password: 'Please fill in this field.',
      new_password: 'Please fill in this field.',
      confirm_password: 'Please fill in this field.',
    });
  });

  it('needs a current password of at least 8 characters', () => {
    expect(change('1234567', 'N3w-secret!')).toEqual({ current_password: 'The current password has at least 8 characters.' });
  });

  it('needs the confirmation to match', () => {
    expect(change('Shoes4ever!', 'N3w-secret!', 'N3w-secret?')).toEqual({ confirm_password: 'Passwords do not match.' });
  });
});

describe('feedback and user info', () => {
  it('requires feedback content, at most 2000 characters', () => {
    expect(problems(feedbackRequestSchema, { content: ' \n ' })).toEqual({ content: 'Please fill in this field.' });
    expect(problems(feedbackRequestSchema, { content: 'x'.repeat(2001) })).toEqual({
      content: 'The text is too long (at most 2000 characters).',
    });
  });

  it('requires phone, contact person, store count and region', () => {
    expect(problems(userInfoFormSchema, { phone: '', contact_person: '', store_count: '', area: '' })).toEqual({
      phone: 'Enter a phone number.',
      contact_person: 'Please fill in this field.',
      store_count: 'Enter the number of stores, a whole number from 0.',
      area: 'Please fill in this field.',
    });
    expect(problems(userInfoFormSchema, { phone: '+7 (912) 345-67-89', contact_person: 'Anna', store_count: '3', area: 'Kazan' })).toEqual({});
    expect(problems(userInfoFormSchema, { phone: 'call me', contact_person: 'Anna', store_count: 'two', area: 'Kazan' })).toEqual({
      phone: 'Enter a phone number.',
      store_count: 'Enter the number of stores, a whole number from 0.',
    });
  });
});

describe('rule texts', () => {
  it('exist in every language and fill in their numbers', () => {
    expect(ruleText('ru', 'rule:too_long;count=100')).toBe('Слишком длинный текст (не больше 100 символов).');
    expect(ruleText('zh', 'rule:code')).toBe('验证码为 6 位数字。');
    expect(ruleText('en', 'any other text')).toBe('any other text');
  });

  it('count in the plural forms of the language', () => {
    expect(ruleText('ru', 'rule:too_long;count=1')).toBe('Слишком длинный текст (не больше 1 символа).');
    expect(ruleText('ru', 'rule:too_long;count=2')).toBe('Слишком длинный текст (не больше 2 символов).');
    expect(ruleText('ru', 'rule:too_deep;count=21')).toBe('Слишком глубокая вложенность (не больше 21 уровня).');
    expect(ruleText('en', 'rule:too_long;count=1')).toBe('The text is too long (at most 1 character).');
    expect(ruleText('zh', 'rule:too_deep;count=1')).toBe('嵌套层级过深（最多 1 层）。');
  });
});
