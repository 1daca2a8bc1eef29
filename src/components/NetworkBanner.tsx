// Tells the seller when the network is gone; the app keeps working from what it has saved.
import { useEffect } from 'react';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { onlineAtom } from '../lib/store';
import './NetworkBanner.css';

export function NetworkBanner() {
  const { t } = useTranslation();
  const [online, setOnline] = useAtom(onlineAtom);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    update();
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, [setOnline]);
  if (online) return null;
  return (
    <div className="network-banner" role="status" data-testid="offline-banner">
      {t('network.offline')}
    </div>
  );
}
