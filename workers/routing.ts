// Which requests the service worker answers from where; plain functions so they are testable.

/** Never cached: the API, and the version file the update check must see fresh. */
export function isRuntimeCacheable(pathname: string): boolean {
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  if (pathname === '/version.json' || pathname === '/sw.js') return false;
  return /\.(?:js|css|png|jpe?g|webp|avif|svg|ico|woff2?|json|html)$/i.test(pathname);
}

/** Navigations answered with the app shell: client routes, not the API, files or legal pages. */
export function isNavigationFallbackPath(pathname: string): boolean {
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  if (pathname.startsWith('/legal/')) return false;
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.');
}
