// The signed-in session as this browser keeps it (SPEC §3 auth data): with remember-me the
// token and user live in localStorage and survive the browser closing; without it they live in
// sessionStorage and only this tab keeps them.
export const AUTH_KEYS = { token: 'auth_token', user: 'auth_user', remember: 'auth_remember' } as const;

/** The part of the account the page keeps between calls. */
export interface StoredUser {
  id: string;
  username: string;
  email: string;
}

function storage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? localStorage : sessionStorage;
  } catch {
    return null; // blocked by the browser's privacy settings
  }
}

function storages(): Storage[] {
  return [storage('local'), storage('session')].filter((s): s is Storage => s !== null);
}

/** The storage holding the current session, if any. */
function holder(): Storage | null {
  return storages().find((s) => s.getItem(AUTH_KEYS.token)) ?? null;
}

export function readStoredToken(): string | null {
  return holder()?.getItem(AUTH_KEYS.token) ?? null;
}

export function readStoredUser(): StoredUser | null {
  const text = holder()?.getItem(AUTH_KEYS.user);
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<StoredUser>;
    return typeof value.id === 'string' && typeof value.username === 'string' && typeof value.email === 'string'
      ? { id: value.id, username: value.username, email: value.email }
      : null;
  } catch {
    return null;
  }
}

export function clearStoredSession(): void {
  for (const s of storages()) {
    for (const key of Object.values(AUTH_KEYS)) s.removeItem(key);
  }
}

export function storeSession(token: string, user: StoredUser, remember: boolean): void {
  clearStoredSession();
  const target = storage(remember ? 'local' : 'session');
  if (!target) return;
  target.setItem(AUTH_KEYS.token, token);
  target.setItem(AUTH_KEYS.user, JSON.stringify(user));
  target.setItem(AUTH_KEYS.remember, String(remember));
}

/** Replaces the token (and user) of the current session where it is kept. */
export function updateStoredSession(token: string, user?: StoredUser): void {
  const target = holder();
  if (!target) return;
  target.setItem(AUTH_KEYS.token, token);
  if (user) target.setItem(AUTH_KEYS.user, JSON.stringify(user));
}
