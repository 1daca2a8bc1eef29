import { describe, expect, it } from 'vitest';
import { isNavigationFallbackPath, isRuntimeCacheable } from '../../workers/routing';

describe('isNavigationFallbackPath', () => {
  it.each(['/', '/shoes', '/task/history', '/localpay/subscription', '/home'])('serves the shell for %s', (path) => {
    expect(isNavigationFallbackPath(path)).toBe(true);
  });

  it.each(['/api', '/api/v1/auth/me', '/legal/ru/terms.html', '/version.json', '/pwa-192x192.png'])(
    'leaves %s to the network or the precache',
    (path) => {
      expect(isNavigationFallbackPath(path)).toBe(false);
    },
  );
});

describe('isRuntimeCacheable', () => {
  it('caches static files', () => {
    expect(isRuntimeCacheable('/countries/ru.json')).toBe(true);
    expect(isRuntimeCacheable('/icons/logo.svg')).toBe(true);
  });

  it('never caches the API, the version file or the worker itself', () => {
    expect(isRuntimeCacheable('/api/v1/tokens/balance')).toBe(false);
    expect(isRuntimeCacheable('/api/health.json')).toBe(false);
    expect(isRuntimeCacheable('/version.json')).toBe(false);
    expect(isRuntimeCacheable('/sw.js')).toBe(false);
  });
});
