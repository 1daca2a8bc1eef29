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
