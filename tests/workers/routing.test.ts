import { describe, expect, it } from 'vitest';
import { isNavigationFallbackPath, isRuntimeCacheable, isStoredFileRead, storedFileKey } from '../../workers/routing';

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

describe('stored files', () => {
  const signed = (query: string) => new URL(`https://app.example/api/v1/storage/assets/u1/a1.png?${query}`);

  it('keeps reads of stored files, not uploads or other API calls', () => {
    expect(isStoredFileRead(signed('op=get&exp=1&sig=x'))).toBe(true);
    expect(isStoredFileRead(signed('op=put&exp=1&sig=x&ct=image%2Fjpeg'))).toBe(false);
    expect(isStoredFileRead(new URL('https://app.example/api/v1/content/assets?op=get'))).toBe(false);
  });

  it('keys a file by its path, so a new signature finds the same copy', () => {
    expect(storedFileKey(signed('op=get&exp=1&sig=a'))).toBe(storedFileKey(signed('op=get&exp=2&sig=b')));
    expect(storedFileKey(signed('op=get&exp=1&sig=a'))).toBe('https://app.example/api/v1/storage/assets/u1/a1.png');
  });
});
