// The service worker: precaches the app shell so every route opens offline after one visit,
// caches other static files as they are used, and waits for the page's word before an update
// takes over (registerType 'prompt', DESIGN §3).
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { isNavigationFallbackPath, isRuntimeCacheable, isStoredFileRead, storedFileKey } from './routing';
import { OUTBOX_SYNC_TAG, replayForSync, replayUploads } from './outbox-replay';

declare let self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// In development the precache list is empty, so there is no index.html to bind to (DESIGN §6).
if (import.meta.env.PROD) {
  const shell = createHandlerBoundToURL('/index.html');
  registerRoute(
    ({ request, url, sameOrigin }) =>
      sameOrigin && request.mode === 'navigate' && isNavigationFallbackPath(url.pathname),
    shell,
  );
}

// The editor's fonts: hashed files fetched only when a text needs them (never precached: the CJK
// slices alone are megabytes) and kept once fetched, so an editor used once draws the same offline.
// Before the static files' route, and in a cache of their own that the app's files never evict.
registerRoute(
  ({ request, sameOrigin }) => sameOrigin && request.method === 'GET' && request.destination === 'font',
  new CacheFirst({
    cacheName: 'fonts',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 365 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

// Static files that are not part of the precache (for example files added to public/ later).
registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && isRuntimeCacheable(url.pathname),
  new StaleWhileRevalidate({
    cacheName: 'static',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60 }),
    ],
  }),
);

// Pictures of results and photos, kept by path so task and material history show them offline.
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && request.destination === 'image' && isStoredFileRead(url),
  new CacheFirst({
    cacheName: 'stored-images',
    plugins: [
      { cacheKeyWillBeUsed: async ({ request }) => storedFileKey(new URL(request.url)) },
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // The page asks for a replay, for example when it is about to close with photos waiting.
  if (type === 'OUTBOX') event.waitUntil(replayUploads(self.location.origin, { wake: true }).catch(() => null));
});

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

// Background Sync: the browser wakes the worker once the network is back, even with no page open.
self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(replayForSync(self.location.origin));
});

// Whenever the worker starts (a browser restart, a wake-up) it sends what is waiting.
void replayUploads(self.location.origin).catch(() => null);

// The first worker takes control at once, so the very first visit is already cached for offline.
clientsClaim();
