// Light and dark themes through Ionic's class-based dark palette; dark is the default.
import { PREFERENCE_KEYS, readPreference, writePreference } from './preferences';

export type Theme = 'dark' | 'light';
const DARK_CLASS = 'ion-palette-dark';
export const THEME_COLORS: Record<Theme, string> = { dark: '#121212', light: '#ffffff' };

export function storedTheme(): Theme {
  return readPreference(PREFERENCE_KEYS.theme) === 'light' ? 'light' : 'dark';
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle(DARK_CLASS, theme === 'dark');
  root.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
}

export function saveTheme(theme: Theme): void {
  writePreference(PREFERENCE_KEYS.theme, theme);
  applyTheme(theme);
}
