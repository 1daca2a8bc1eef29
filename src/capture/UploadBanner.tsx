// How many photos are still on their way: uploading, or waiting for the network. Counted live from
// the outbox, so it follows every runner (this page, another tab, the service worker).
import { cloudOfflineOutline, cloudUploadOutline } from 'ionicons/icons';
import { useAtomValue } from 'jotai';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { onlineAtom } from '../lib/store';
import { db } from '../offline/db';
import { waitingUploads } from '../offline/jobs/upload';

export function UploadBanner() {
  const { t } = useTranslation();
  const waiting = useLiveQuery(() => waitingUploads(db), [], 0);
  const online = useAtomValue(onlineAtom);
  if (waiting === 0) return null;
  return (
    <p className={`task__banner${online ? '' : ' task__banner--offline'}`} role="status" data-testid="upload-banner">
      <Icon icon={online ? cloudUploadOutline : cloudOfflineOutline} />
      {online ? t('task.uploadingCount', { count: waiting }) : t('task.waiting', { count: waiting })}
    </p>
  );
}
