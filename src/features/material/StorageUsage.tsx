// How much of the seller's storage quota their photos and results take, and a warning once a new
// photo would no longer fit (the server then refuses uploads with STORAGE_QUOTA_EXCEEDED).
import { useTranslation } from 'react-i18next';
import { MAX_UPLOAD_BYTES, type StorageUsage as Usage } from '../../../contract/materials';
import { formatBytes } from '../../content/download';
import { currentLocale } from '../../lib/i18n';

export function StorageUsage({ usage }: { usage: Usage | null }) {
  const { t } = useTranslation();
  if (!usage) return null;
  const locale = currentLocale();
  const full = usage.quota_bytes - usage.used_bytes < MAX_UPLOAD_BYTES;
  return (
    <div className="material-storage" data-testid="storage-usage" data-full={full}>
      <label>
        {t('history.material.storage', { used: formatBytes(usage.used_bytes, locale), quota: formatBytes(usage.quota_bytes, locale) })}
        <progress max={usage.quota_bytes} value={Math.min(usage.used_bytes, usage.quota_bytes)} />
      </label>
      {full ? <p role="alert">{t('history.material.storageFull')}</p> : null}
    </div>
  );
}
