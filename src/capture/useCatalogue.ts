// The server's catalogue of styles and prices for a task page (GET /content/config), loaded when
// the page needs it and again when the network returns; the saved copy stands in offline.
import { useCallback, useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import type { CategoryOffer } from '../../contract/content';
import { currentLocale } from '../lib/i18n';
import { onlineAtom } from '../lib/store';
import { loadContentConfig } from './api/content-config';

export type Catalogue =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; offers: CategoryOffer[]; offline: boolean };

export function useCatalogue(): { catalogue: Catalogue; offers: CategoryOffer[]; retry: () => void } {
  const online = useAtomValue(onlineAtom);
  const [catalogue, setCatalogue] = useState<Catalogue>({ state: 'loading' });
  const load = useCallback(() => {
    void loadContentConfig(currentLocale())
      .then(({ catalogue: loaded, offline }) => setCatalogue({ state: 'ready', offers: loaded.categories, offline }))
      .catch((error: unknown) => setCatalogue({ state: 'failed', message: error instanceof Error ? error.message : String(error) }));
  }, []);
  useEffect(() => {
    load();
  }, [load, online]);
  const retry = () => {
    setCatalogue({ state: 'loading' });
    load();
  };
  return { catalogue, offers: catalogue.state === 'ready' ? catalogue.offers : [], retry };
}
