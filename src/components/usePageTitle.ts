import { useCallback, useEffect } from 'react';
import { useIonViewWillEnter } from '@ionic/react';
import { useTranslation } from 'react-i18next';

/**
 * Names the browser tab (and what screen readers announce on navigation) after the page.
 * Ionic keeps visited pages mounted, so the title is set again whenever the page re-enters.
 */
export function usePageTitle(title: string) {
  const { t } = useTranslation();
  const apply = useCallback(() => {
    document.title = title ? `${title} · ${t('app.name')}` : `${t('app.name')} — ${t('app.tagline')}`;
  }, [title, t]);
  useEffect(apply, [apply]);
  useIonViewWillEnter(apply, [apply]);
}
