// The signed-in session's life: beginning it after sign-in, checking it when the app starts,
// the one-time initialisation, the balance, and signing out.
import type { AccessToken, User } from '../../contract/auth';
import { currentLocale } from '../lib/i18n';
import { storeSession, updateStoredSession, type StoredUser } from '../lib/session';
import { isLiveSubscription } from '../../contract/billing';
import { getMySubscription } from '../billing/subscriptions';
import {
  balanceAtom,
  balanceExpiryAtom,
  clearSessionAtom,
  sessionTokenAtom,
  signedOutReasonAtom,
  store,
  subscriptionAtom,
  topUpPromptAtom,
  userAtom,
} from '../lib/store';
import { getBalance } from './api/get-balance';
import { logout } from './api/logout';
import { refreshSession } from './api/session-refresh';

let initialised = false;

function stored(user: User): StoredUser {
  return { id: user.id, username: user.username, email: user.email };
}

async function rememberForServiceWorker(token: string, userId: string) {
  try {
    const { db, writeSessionRecord } = await import('../offline/db');
    await writeSessionRecord(token, userId, db, currentLocale());
  } catch (error) {
    // Without IndexedDB the page still works; only replay by the service worker is lost.
    console.warn('The session could not be stored for background uploads', error);
  }
}

/** Reads the balance, and when some of it lapses, into the store (the drawer and the wallet-refresh event use it). */
export async function refreshBalance(): Promise<void> {
  const balance = await getBalance();
  store.set(balanceAtom, balance.total_tokens);
  store.set(balanceExpiryAtom, balance.expires_at);
}

/** Reads the seller's subscription into the store (the drawer, the consumption history, the prompt). */
export async function refreshSubscription(): Promise<void> {
  store.set(subscriptionAtom, await getMySubscription());
}

/** Runs once per sign-in; a failure is ignored (SPEC §2). */
function initialiseOnce(): void {
  if (initialised) return;
  initialised = true;
  // SPEC §4: on first load, a subscriber with less than one token is offered a top-up or an upgrade.
  Promise.all([refreshBalance(), refreshSubscription()])
    .then(() => {
      const balance = store.get(balanceAtom);
      if (isLiveSubscription(store.get(subscriptionAtom)) && balance !== null && balance < 1) store.set(topUpPromptAtom, true);
    })
    .catch(() => {});
}

/** After a successful sign-in: keeps the token where remember-me says and starts the session. */
export async function beginSession(token: AccessToken, user: User): Promise<void> {
  storeSession(token.access_token, stored(user), token.remember_me);
  store.set(signedOutReasonAtom, null);
  store.set(userAtom, stored(user));
  store.set(sessionTokenAtom, token.access_token);
  await rememberForServiceWorker(token.access_token, user.id);
  initialised = false;
  initialiseOnce();
}

/** When the app starts with a stored token: the server confirms and extends the session. */
export async function resumeSession(): Promise<void> {
  if (!store.get(sessionTokenAtom)) return;
  try {
    const session = await refreshSession();
    updateStoredSession(session.access_token, stored(session.user));
    store.set(userAtom, stored(session.user));
    store.set(sessionTokenAtom, session.access_token);
    await rememberForServiceWorker(session.access_token, session.user.id);
  } catch {
    // A 401 has already signed the seller out; offline, the stored session stays until the server says.
  }
  if (store.get(sessionTokenAtom)) initialiseOnce();
}

/** Ends the session on the server (when reachable) and here. */
export async function signOut(): Promise<void> {
  try {
    await logout();
  } catch {
    // Offline or already ended: the token is forgotten here either way.
  }
  store.set(clearSessionAtom);
  initialised = false;
}
