import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Names the browser tab (and what screen readers announce on navigation) after the page. Returns
 * the function that does it, for the page to call again when it re-enters the screen (Ionic keeps
 * visited pages mounted).
 */
export function usePageTitle(title: string): () => void {
  const { t } = useTranslation();
  const apply = useCallback(() => {
    document.title = title ? `${title} · ${t('app.name')}` : `${t('app.name')} — ${t('app.tagline')}`;
  }, [title, t]);
  useEffect(apply, [apply]);
  return apply;
}
