import { describe, expect, it } from 'vitest';
import { applyTheme, saveTheme, storedTheme } from '../../../src/lib/theme';

describe('theme', () => {
  it('is dark until the seller picks light', () => {
    expect(storedTheme()).toBe('dark');
    saveTheme('light');
    expect(storedTheme()).toBe('light');
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('switches Ionic’s dark palette class and the browser colour', () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.append(meta);
    applyTheme('dark');
    expect(document.documentElement.classList.contains('ion-palette-dark')).toBe(true);
    expect(meta.content).toBe('#121212');
    applyTheme('light');
    expect(document.documentElement.classList.contains('ion-palette-dark')).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe('light');
    expect(meta.content).toBe('#ffffff');
    meta.remove();
  });
});
