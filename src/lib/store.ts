// The one jotai store: React reads it through <Provider store>, and code outside React (the
// api client, the update controller) reads and writes the same atoms through it.
import { atom, createStore } from 'jotai';
import { clearStoredSession, readStoredToken } from './session';
import { saveTheme, storedTheme, type Theme } from './theme';

export const store = createStore();

export const sessionTokenAtom = atom<string | null>(readStoredToken());

/** Signs out locally: forgets the stored token and user. */
export const clearSessionAtom = atom(null, (_get, set) => {
  clearStoredSession();
  set(sessionTokenAtom, null);
});

const themeBaseAtom = atom<Theme>(storedTheme());
export const themeAtom = atom(
  (get) => get(themeBaseAtom),
  (_get, set, theme: Theme) => {
    saveTheme(theme);
    set(themeBaseAtom, theme);
  },
);

export const onlineAtom = atom<boolean>(typeof navigator === 'undefined' ? true : navigator.onLine);
