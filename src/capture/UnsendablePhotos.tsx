// The photos a task cannot be sent with, named before the seller confirms (SPEC §4): an upload
// the server refused, or a photo nothing will send. Used by /task (page 2) and /task/retry.
import { useTranslation } from 'react-i18next';
import { SHOE_VIEWS, type ShoeView } from '../../contract/enums';
import type { DraftRecord } from '../offline/records';

/** Views whose photo cannot go with a task until it is retried, replaced or deleted. */
export function unsendableViews(draft: Pick<DraftRecord, 'slots'> | null | undefined): ShoeView[] {
  return SHOE_VIEWS.filter((view) => {
    const slot = draft?.slots[view];
    return slot !== undefined && (slot.state === 'failed' || !slot.jobId);
  });
}

export function UnsendablePhotos({ views }: { views: readonly ShoeView[] }) {
  const { t } = useTranslation();
  if (views.length === 0) return null;
  return (
    <p className="task__banner task__banner--offline" role="alert" data-testid="task-unsendable">
      {t('task.errors.unsendable', { views: views.map((view) => t(`task.views.${view}`)).join(', ') })}
    </p>
  );
}
