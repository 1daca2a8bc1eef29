// Which paths belong to the client app, decided once for the server (index.html fallback) and
// the service worker (offline navigation).

export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** The payment sandbox's checkout pages: served by the server like a provider's, never by the app. */
export const SANDBOX_CHECKOUT_PATH = '/sandbox/checkout';

/** A path the single-page app answers: not the API, not a static legal page, not the sandbox's pages, not a file. */
export function isClientRoutePath(pathname: string): boolean {
  if (isApiPath(pathname) || pathname.startsWith('/legal/') || pathname.startsWith(`${SANDBOX_CHECKOUT_PATH}/`)) return false;
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.');
}
