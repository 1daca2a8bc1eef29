// Says that a history page shows its last loaded copy because there is no network, and from when.
import { cloudOfflineOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { formatDateTime } from './rules';

export function OfflineCopyBanner({ savedAt }: { savedAt: number | null }) {
  const { t } = useTranslation();
  if (savedAt === null) return null;
  return (
    <p className="history__banner history__banner--offline" role="status" data-testid="history-offline">
      <Icon icon={cloudOfflineOutline} /> {t('history.offline', { date: formatDateTime(new Date(savedAt).toISOString()) })}
    </p>
  );
}
