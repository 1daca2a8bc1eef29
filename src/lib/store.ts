// The one jotai store: React reads it through <Provider store>, and code outside React (the
// api client, the update controller, the session module) reads and writes the same atoms.
import { atom, createStore } from 'jotai';
import type { Subscription } from '../../contract/billing';
import { clearStoredSession, readStoredToken, readStoredUser, type StoredUser } from './session';
import { saveTheme, storedTheme, type Theme } from './theme';

export const store = createStore();

export const sessionTokenAtom = atom<string | null>(readStoredToken());
export const userAtom = atom<StoredUser | null>(readStoredUser());
/** The token balance from the server; null until it has been read. */
export const balanceAtom = atom<number | null>(null);
/** When some of the balance next lapses (a subscription period's end); null when none does or not read yet. */
export const balanceExpiryAtom = atom<string | null>(null);
/** The seller's subscription: undefined until read, null when they have none. */
export const subscriptionAtom = atom<Subscription | null | undefined>(undefined);
/** The top-up-or-upgrade prompt of the first load (SPEC §4): a subscriber with less than one token. */
export const topUpPromptAtom = atom(false);

/**
 * Why the server signed this page out, when it said: the password was changed on another device
 * (401 SESSION_REVOKED). The landing page tells the seller; signing in again clears it.
 */
export const signedOutReasonAtom = atom<'password_changed' | null>(null);

/** Signs out locally: forgets the stored token and user here and in IndexedDB. */
export const clearSessionAtom = atom(null, (_get, set) => {
  clearStoredSession();
  set(sessionTokenAtom, null);
  set(userAtom, null);
  set(balanceAtom, null);
  set(balanceExpiryAtom, null);
  set(subscriptionAtom, undefined);
  set(topUpPromptAtom, false);
  // Loaded on demand: IndexedDB code has no place on the landing page's critical path.
  void import('../offline/db').then(({ clearSessionRecord }) => clearSessionRecord()).catch(() => {});
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
