// The service worker registration seen through workbox-window, for the update controller.
import { Workbox } from 'workbox-window';
import type { ServiceWorkerPort } from './update-controller';

/** How long to wait for a newly found worker to finish installing before reloading anyway. */
const INSTALL_TIMEOUT_MS = 30_000;

export function workboxPort(scriptUrl = '/sw.js'): ServiceWorkerPort | null {
  if (!('serviceWorker' in navigator)) return null;
  const wb = new Workbox(scriptUrl, { scope: '/' });
  let registration: ServiceWorkerRegistration | undefined;

  return {
    async register(onWaiting) {
      wb.addEventListener('waiting', onWaiting);
      registration = await wb.register();
    },
    async checkForWaiting() {
      if (!registration) return false;
      await registration.update();
      const incoming = registration.installing;
      if (incoming) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, INSTALL_TIMEOUT_MS);
          incoming.addEventListener('statechange', () => {
            if (incoming.state !== 'installing') {
              clearTimeout(timer);
              resolve();
            }
          });
        });
      }
      return Boolean(registration.waiting);
    },
    activateWaiting(onControlling) {
      navigator.serviceWorker.addEventListener('controllerchange', () => onControlling(), { once: true });
      const waiting = registration?.waiting;
      if (waiting) waiting.postMessage({ type: 'SKIP_WAITING' });
      else wb.messageSkipWaiting();
    },
  };
}
