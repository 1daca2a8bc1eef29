// Wires the update controller to the app: the offer lands in an atom the dialog reads.
import { updateOfferAtom } from './update-offer';
import { store } from '../../lib/store';
import { getVersionInfo } from './api/get-version-info';
import { workboxPort } from './sw-port';
import { createUpdateController, type UpdateController } from './update-controller';

export { updateOfferAtom };

/** Checks again when the seller comes back to the app, at most this often. */
const RECHECK_MS = 5 * 60 * 1000;

let controller: UpdateController | null = null;

export function updates(): UpdateController {
  controller ??= createUpdateController({
    runningVersion: __APP_VERSION__,
    fetchVersionInfo: getVersionInfo,
    serviceWorker: import.meta.env.PROD ? workboxPort() : null,
    offer: (offer) => store.set(updateOfferAtom, offer),
    reload: () => window.location.reload(),
  });
  return controller;
}

export function startUpdates(): void {
  const control = updates();
  void control.start();
  let lastCheck = Date.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastCheck > RECHECK_MS) {
      lastCheck = Date.now();
      void control.check();
    }
  });
}
