// Preferences kept in this browser. index.html's start-up script reads the same keys before the
// first paint so the theme and language never flash.
export const PREFERENCE_KEYS = { locale: 'locale', theme: 'theme' } as const;

export function readPreference(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage blocked (private mode, policy): fall back to defaults
  }
}

export function writePreference(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the choice lasts for this page only.
  }
}
