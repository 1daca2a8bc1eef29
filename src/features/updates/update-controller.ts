// Decides when to offer an update and carries it out (SPEC §4 version check, DESIGN §3 updates):
// an update is offered when /version.json names a newer version than the running one, or when
// a new service worker is waiting. Accepting tells the waiting worker to take over and reloads
// once it controls the page; with no worker to wait for, it simply reloads.
import { compareVersions, type VersionInfo } from '../../../contract/version';

export interface UpdateOffer {
  version: string;
  changelog: VersionInfo['changelog'] | null;
  forceUpdate: boolean;
}

/** What the controller needs of the service worker registration (see sw-port.ts). */
export interface ServiceWorkerPort {
  /** Registers the worker; calls `onWaiting` whenever a new worker waits to take over. */
  register(onWaiting: () => void): Promise<void>;
  /** Looks for a new worker; resolves true when one is waiting after the check. */
  checkForWaiting(): Promise<boolean>;
  /** Asks the waiting worker to activate; calls `onControlling` when it controls the page. */
  activateWaiting(onControlling: () => void): void;
}

export interface UpdateControllerDeps {
  runningVersion: string;
  fetchVersionInfo: () => Promise<VersionInfo>;
  serviceWorker: ServiceWorkerPort | null;
  offer: (offer: UpdateOffer) => void;
  reload: () => void;
}

export interface UpdateController {
  start(): Promise<void>;
  /** Fetches /version.json; offers the update when it is newer. Network failures are quiet. */
  check(): Promise<void>;
  apply(): Promise<void>;
  /** "Later": the same version is not offered again in this page's life. */
  postpone(version: string): void;
}

export function createUpdateController(deps: UpdateControllerDeps): UpdateController {
  let waiting = false;
  let latest: VersionInfo | null = null;
  const postponed = new Set<string>();

  const offerIfWanted = (offer: UpdateOffer) => {
    if (!offer.forceUpdate && postponed.has(offer.version)) return;
    deps.offer(offer);
  };

  const fetchLatest = async (): Promise<VersionInfo | null> => {
    try {
      latest = await deps.fetchVersionInfo();
    } catch {
      // Offline or a server hiccup: try again on the next check.
    }
    return latest;
  };

  const check = async () => {
    const info = await fetchLatest();
    if (info && compareVersions(info.version, deps.runningVersion) > 0) {
      offerIfWanted({ version: info.version, changelog: info.changelog, forceUpdate: info.forceUpdate });
    }
  };

  const onWaiting = () => {
    waiting = true;
    void fetchLatest().then((info) => {
      const newer = info && compareVersions(info.version, deps.runningVersion) > 0 ? info : null;
      offerIfWanted({
        version: newer?.version ?? '',
        changelog: newer?.changelog ?? null,
        forceUpdate: newer?.forceUpdate ?? false,
      });
    });
  };

  return {
    async start() {
      if (deps.serviceWorker) {
        try {
          await deps.serviceWorker.register(onWaiting);
        } catch {
          // No service worker (private mode, unsupported): the app still works online.
        }
      }
      await check();
    },
    check,
    async apply() {
      const sw = deps.serviceWorker;
      if (sw && !waiting) waiting = await sw.checkForWaiting().catch(() => false);
      if (sw && waiting) sw.activateWaiting(deps.reload);
      else deps.reload();
    },
    postpone(version) {
      postponed.add(version);
    },
  };
}
