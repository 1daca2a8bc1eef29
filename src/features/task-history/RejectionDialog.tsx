// A task whose photos were turned away (SPEC §4): each rejected photo with the reason, and the
// way to fix them on /task/retry.
import { useEffect, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { FailureDetail, Task } from '../../../contract/content';
import { Dialog } from '../../components/Dialog';
import { taskRetryPath } from '../../config/paths';
import { getFailureDetails } from '../../content/api';
import { useTaskTexts } from './TaskCard';

type Details = { state: 'loading' } | { state: 'ready'; list: FailureDetail[] } | { state: 'failed'; message: string };

export function RejectionDialog({ task, onClose }: { task: Task; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { viewName } = useTaskTexts();
  const [details, setDetails] = useState<Details>({ state: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getFailureDetails(task.id, controller.signal)
      .then((list) => setDetails({ state: 'ready', list }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setDetails({ state: 'failed', message: t('common.errors.internal_server_error') + (error instanceof Error && error.message ? ` (${error.message})` : '') });
      });
    return () => controller.abort();
  }, [task.id, t]);

  const view = (materialId: string) => {
    const material = task.materials.find((m) => m.id === materialId);
    return (material && viewName(material.description)) ?? '';
  };

  return (
    <Dialog open onClose={onClose} labelledBy="rejection-title" closeLabel={t('history.rejection.close')} testId="rejection-dialog">
      <h2 id="rejection-title">{t('history.rejection.title')}</h2>
      <p>{t('history.rejection.lead')}</p>
      {details.state === 'loading' ? <p role="status">{t('history.rejection.loading')}</p> : null}
      {details.state === 'failed' ? <p role="alert">{details.message}</p> : null}
      {details.state === 'ready' ? (
        <ul className="rejection__list">
          {details.list.map((detail) => (
            <li key={detail.id} className="rejection__item" data-testid="rejected-material">
              {detail.file_url ? <img src={detail.file_url} alt={t('history.rejection.photoAlt', { view: view(detail.material_id) })} /> : null}
              <div>
                <strong>{view(detail.material_id)}</strong>
                <p>{detail.reason}</p>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={onClose}>
          {t('history.rejection.close')}
        </IonButton>
        <IonButton
          onClick={() => {
            onClose();
            navigate(taskRetryPath(task.id));
          }}
          data-testid="rejection-retry"
        >
          {t('history.rejection.retry')}
        </IonButton>
      </div>
    </Dialog>
  );
}
