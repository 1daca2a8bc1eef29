// Where the browser keeps the session (SPEC §3, §4): remember-me in localStorage, otherwise in
// sessionStorage, under auth_token, auth_user and auth_remember.
import { describe, expect, it } from 'vitest';
import {
  clearStoredSession,
  readStoredToken,
  readStoredUser,
  storeSession,
  updateStoredSession,
} from '../../../src/lib/session';
import { balanceAtom, clearSessionAtom, sessionTokenAtom, store, userAtom } from '../../../src/lib/store';

const user = { id: 'a1b2', username: 'anna', email: 'anna@shop.example' };

describe('stored session', () => {
  it('keeps a remembered session in localStorage only', () => {
    storeSession('token-1', user, true);
    expect(localStorage.getItem('auth_token')).toBe('token-1');
    expect(localStorage.getItem('auth_remember')).toBe('true');
    expect(JSON.parse(localStorage.getItem('auth_user')!)).toEqual(user);
    expect(sessionStorage.getItem('auth_token')).toBeNull();
    expect(readStoredToken()).toBe('token-1');
    expect(readStoredUser()).toEqual(user);
  });

  it('keeps a session without remember-me in sessionStorage only, replacing a remembered one', () => {
    storeSession('token-1', user, true);
    storeSession('token-2', user, false);
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(sessionStorage.getItem('auth_token')).toBe('token-2');
    expect(sessionStorage.getItem('auth_remember')).toBe('false');
    expect(readStoredToken()).toBe('token-2');
  });

  it('updates the token where the session is kept', () => {
    storeSession('token-1', user, false);
    updateStoredSession('token-3', { ...user, username: 'anna2' });
    expect(sessionStorage.getItem('auth_token')).toBe('token-3');
    expect(readStoredUser()?.username).toBe('anna2');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('ignores a damaged user record', () => {
    localStorage.setItem('auth_token', 't');
    localStorage.setItem('auth_user', '{not json');
    expect(readStoredUser()).toBeNull();
    localStorage.setItem('auth_user', JSON.stringify({ id: 1 }));
    expect(readStoredUser()).toBeNull();
  });

  it('forgets everything on sign-out', () => {
    storeSession('token-1', user, true);
    sessionStorage.setItem('auth_token', 'stale');
    clearStoredSession();
    for (const storage of [localStorage, sessionStorage]) {
      for (const key of ['auth_token', 'auth_user', 'auth_remember']) expect(storage.getItem(key)).toBeNull();
    }
  });

  it('signing out locally empties the token, user and balance atoms', () => {
    storeSession('token-1', user, true);
    store.set(sessionTokenAtom, 'token-1');
    store.set(userAtom, user);
    store.set(balanceAtom, 50);
    store.set(clearSessionAtom);
    expect(store.get(sessionTokenAtom)).toBeNull();
    expect(store.get(userAtom)).toBeNull();
    expect(store.get(balanceAtom)).toBeNull();
    expect(readStoredToken()).toBeNull();
  });
});
