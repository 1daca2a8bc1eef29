// Which requests the service worker answers from where; plain functions so they are testable.
import { isApiPath, isClientRoutePath } from '../contract/routes';

/** Never cached: the API, and the version file the update check must see fresh. */
export function isRuntimeCacheable(pathname: string): boolean {
  if (isApiPath(pathname)) return false;
  if (pathname === '/version.json' || pathname === '/sw.js') return false;
  return /\.(?:js|css|png|jpe?g|webp|avif|svg|ico|woff2?|json|html)$/i.test(pathname);
}

/** Navigations answered with the app shell. */
export const isNavigationFallbackPath = isClientRoutePath;
