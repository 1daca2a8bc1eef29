// Which paths belong to the client app, decided once for the server (index.html fallback) and
// the service worker (offline navigation).

export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** A path the single-page app answers: not the API, not a static legal page, not a file. */
export function isClientRoutePath(pathname: string): boolean {
  if (isApiPath(pathname) || pathname.startsWith('/legal/')) return false;
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.');
}
