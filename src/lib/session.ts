// The signed-in session as this browser keeps it (SPEC §3 auth data): the token lives in
// localStorage with remember-me, otherwise in sessionStorage.
export const AUTH_KEYS = { token: 'auth_token', user: 'auth_user', remember: 'auth_remember' } as const;

function storages(): Storage[] {
  const found: Storage[] = [];
  try {
    found.push(localStorage);
  } catch {
    /* blocked */
  }
  try {
    found.push(sessionStorage);
  } catch {
    /* blocked */
  }
  return found;
}

export function readStoredToken(): string | null {
  for (const storage of storages()) {
    const token = storage.getItem(AUTH_KEYS.token);
    if (token) return token;
  }
  return null;
}

export function clearStoredSession(): void {
  for (const storage of storages()) {
    for (const key of Object.values(AUTH_KEYS)) storage.removeItem(key);
  }
}
