import type { z } from 'zod';

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

/** A JSON value kept in this browser under `key` (across a provider's page), checked when read back. */
export function keptJson<S extends z.ZodType>(key: string, schema: S) {
  return {
    keep(value: z.input<S>): void {
      writePreference(key, JSON.stringify(value));
    },
    /** The value kept, or null when there is none or it is not in the schema's shape. */
    read(): z.output<S> | null {
      try {
        const parsed = schema.safeParse(JSON.parse(readPreference(key) ?? 'null'));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    forget(): void {
      try {
        localStorage.removeItem(key);
      } catch {
        // storage blocked: nothing was kept
      }
    },
  };
}
