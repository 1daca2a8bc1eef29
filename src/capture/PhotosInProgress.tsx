// Why a task page's next step waits: a photo is still being compressed or stored, and until it is,
// the draft holds the slot's old photo (or none). Used by /task (page 1) and /task/retry.
import { useTranslation } from 'react-i18next';
import type { DraftPhotos } from './useDraftPhotos';

export function PhotosInProgress({ photos }: { photos: Pick<DraftPhotos, 'processing'> }) {
  const { t } = useTranslation();
  if (!photos.processing) return null;
  return (
    <p className="task__banner" role="status" data-testid="photos-in-progress">
      {t('task.processing')}
    </p>
  );
}
