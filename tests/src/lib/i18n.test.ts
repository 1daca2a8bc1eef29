import { describe, expect, it, vi } from 'vitest';
import { changeLocale, currentLocale, initI18n, storedLocale } from '../../../src/lib/i18n';

describe('languages', () => {
  it('default to Russian', async () => {
    expect(storedLocale()).toBe('ru');
    const i18n = await initI18n();
    expect(currentLocale()).toBe('ru');
    expect(i18n.t('nav.login')).toBe('Войти');
    expect(document.documentElement.lang).toBe('ru');
  });

  it('load English on demand and fall back to Russian for nothing missing', async () => {
    const i18n = await initI18n('en');
    expect(i18n.t('nav.login')).toBe('Sign in');
    expect(i18n.t('landing.users')).toBe('More than 50,000 sellers');
    expect(document.documentElement.lang).toBe('en');
  });

  it('count in the plural forms of each language', async () => {
    let i18n = await initI18n('ru');
    await import('../../../src/lib/account-texts');
    const tokens = (count: number) => i18n.t('wallet.tokens', { count });
    expect([1, 3, 5, 21, 1.5].map(tokens)).toEqual(['1 токен', '3 токена', '5 токенов', '21 токен', '1.5 токена']);
    expect(i18n.t('task.batchLeftOver', { count: 2 })).toBe('Свободных ячеек нет: 2 файла не добавлены.');
    i18n = await initI18n('en');
    expect([1, 3, 5].map(tokens)).toEqual(['1 token', '3 tokens', '5 tokens']);
    i18n = await initI18n('zh');
    expect([1, 5].map(tokens)).toEqual(['1 个代币', '5 个代币']);
  });

  it('say the form rules of the account screens once they have loaded', async () => {
    const i18n = await initI18n('ru');
    await import('../../../src/lib/account-texts');
    expect(i18n.t('rules.too_long', { count: 60 })).toBe('Слишком длинный текст (не больше 60 символов).');
    expect((await initI18n('en')).t('rules.too_long', { count: 1 })).toBe('The text is too long (at most 1 character).');
  });

  it('persist a new choice and reload the page', async () => {
    await initI18n('ru');
    const reload = vi.fn();
    changeLocale('zh', reload);
    expect(localStorage.getItem('locale')).toBe('zh');
    expect(reload).toHaveBeenCalledOnce();
    expect(storedLocale()).toBe('zh');
  });

  it('do nothing when the language is already current', async () => {
    await initI18n('ru');
    const reload = vi.fn();
    changeLocale('ru', reload);
    expect(reload).not.toHaveBeenCalled();
  });
});
