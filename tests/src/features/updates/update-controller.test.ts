import { describe, expect, it, vi } from 'vitest';
import {
  createUpdateController,
  type ServiceWorkerPort,
  type UpdateOffer,
} from '../../../../src/features/updates/update-controller';
import type { VersionInfo } from '../../../../contract/version';

const info = (version: string, forceUpdate = false): VersionInfo => ({
  version,
  forceUpdate,
  changelog: { ru: `ru ${version}`, en: `en ${version}`, zh: `zh ${version}` },
});

class FakeWorker implements ServiceWorkerPort {
  onWaiting: (() => void) | null = null;
  waitingAfterCheck = false;
  activated = 0;
  onControlling: (() => void) | null = null;
  async register(onWaiting: () => void) {
    this.onWaiting = onWaiting;
  }
  async checkForWaiting() {
    return this.waitingAfterCheck;
  }
  activateWaiting(onControlling: () => void) {
    this.activated += 1;
    this.onControlling = onControlling;
  }
}

function setup(fetched: VersionInfo | Error, serviceWorker: ServiceWorkerPort | null = null) {
  const offers: UpdateOffer[] = [];
  const reload = vi.fn();
  const controller = createUpdateController({
    runningVersion: '2.0.0',
    fetchVersionInfo: () => (fetched instanceof Error ? Promise.reject(fetched) : Promise.resolve(fetched)),
    serviceWorker,
    offer: (offer) => offers.push(offer),
    reload,
  });
  return { controller, offers, reload };
}

describe('the update controller', () => {
  it('offers a newer version with its changelog', async () => {
    const { controller, offers } = setup(info('2.1.0'));
    await controller.start();
    expect(offers).toEqual([{ version: '2.1.0', changelog: info('2.1.0').changelog, forceUpdate: false }]);
  });

  it('offers nothing for the running or an older version', async () => {
    for (const version of ['2.0.0', '1.9.0']) {
      const { controller, offers } = setup(info(version));
      await controller.start();
      expect(offers, version).toEqual([]);
    }
  });

  it('stays quiet when the version file cannot be fetched', async () => {
    const { controller, offers } = setup(new Error('offline'));
    await expect(controller.start()).resolves.toBeUndefined();
    expect(offers).toEqual([]);
  });

  it('does not offer a postponed version again, unless it is forced', async () => {
    const later = setup(info('2.1.0'));
    await later.controller.check();
    later.controller.postpone('2.1.0');
    await later.controller.check();
    expect(later.offers).toHaveLength(1);

    const forced = setup(info('2.1.0', true));
    await forced.controller.check();
    forced.controller.postpone('2.1.0');
    await forced.controller.check();
    expect(forced.offers).toHaveLength(2);
    expect(forced.offers[1]?.forceUpdate).toBe(true);
  });

  it('offers the update when a new service worker is waiting', async () => {
    const worker = new FakeWorker();
    const { controller, offers } = setup(info('2.0.0'), worker);
    await controller.start();
    expect(offers).toEqual([]);
    worker.onWaiting?.();
    await vi.waitFor(() => expect(offers).toHaveLength(1));
    expect(offers[0]).toEqual({ version: '', changelog: null, forceUpdate: false });
  });

  it('activates the waiting worker and reloads once it controls the page', async () => {
    const worker = new FakeWorker();
    const { controller, reload } = setup(info('2.1.0'), worker);
    await controller.start();
    worker.onWaiting?.();
    await controller.apply();
    expect(worker.activated).toBe(1);
    expect(reload).not.toHaveBeenCalled();
    worker.onControlling?.();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('looks for a new worker first when only the version file announced the update', async () => {
    const worker = new FakeWorker();
    worker.waitingAfterCheck = true;
    const { controller } = setup(info('2.1.0'), worker);
    await controller.start();
    await controller.apply();
    expect(worker.activated).toBe(1);
  });

  it('simply reloads when there is no worker to wait for', async () => {
    const worker = new FakeWorker();
    const { controller, reload } = setup(info('2.1.0'), worker);
    await controller.start();
    await controller.apply();
    expect(worker.activated).toBe(0);
    expect(reload).toHaveBeenCalledOnce();

    const noWorker = setup(info('2.1.0'));
    await noWorker.controller.apply();
    expect(noWorker.reload).toHaveBeenCalledOnce();
  });
});
