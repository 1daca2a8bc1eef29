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

/** Where the local storage serves stored files (server/storage/local.ts). */
export const STORED_FILE_PREFIX = '/api/v1/storage/';

/**
 * A stored file read through a signed address (a result or a photo). Its key names it for good
 * (a new file gets a new key), so the copy is kept by path, without the signature that changes
 * with every listing, and history thumbnails still show offline.
 */
export function isStoredFileRead(url: URL): boolean {
  return url.pathname.startsWith(STORED_FILE_PREFIX) && url.searchParams.get('op') === 'get';
}

/** The cache key of a stored file: its address without the signature. */
export function storedFileKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
