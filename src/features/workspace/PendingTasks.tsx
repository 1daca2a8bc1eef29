// Tasks the seller added that the server does not have yet (DESIGN §3): waiting for their photos
// or the network, or refused (no tokens, a photo refused). Each can be taken back to its draft,
// sent again or discarded; nothing leaves the device until the seller says so. The list is read
// live from the outbox, so it follows every runner (this page, another tab, the service worker).
import { useEffect } from 'react';
import { IonButton } from '@ionic/react';
import { useAtomValue } from 'jotai';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { showToast } from '../../components/toast';
import { taskPath, taskRetryPath } from '../../config/paths';
import { processUploads, startUploads } from '../../capture/uploads';
import { onlineAtom } from '../../lib/store';
import { db } from '../../offline/db';
import { contentTypeOf, type GenerateJob } from '../../offline/records';
import { discardTask, pendingTasks, resendTask, restoreTask } from '../../offline/jobs/generate';

export function PendingTasks() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const online = useAtomValue(onlineAtom);
  const jobs = useLiveQuery(() => pendingTasks(db), [], []);

  useEffect(() => {
    startUploads();
  }, []);

  if (jobs.length === 0) return null;

  const stateOf = (job: GenerateJob) => {
    if (job.state === 'failed') return t('workspace.queue.failed', { message: job.error ?? '' });
    if (job.state === 'running') return t('workspace.queue.sending');
    return online ? t('workspace.queue.waiting') : t('workspace.queue.offline');
  };

  const edit = async (job: GenerateJob) => {
    const draft = await restoreTask(db, job.id);
    if (!draft) {
      showToast(t('workspace.queue.editBusy', { type: t(`workspace.tiles.${contentTypeOf(job.draft)}.title`) }), 'error');
      return;
    }
    navigate(draft.retry ? taskRetryPath(draft.retry.taskId) : taskPath(contentTypeOf(draft)));
  };

  return (
    <section className="home__queue" aria-labelledby="queue-title" data-testid="pending-tasks">
      <h2 id="queue-title">{t('workspace.queue.title')}</h2>
      <ul>
        {jobs.map((job) => (
          <li key={job.id} className={`queue__item${job.state === 'failed' ? ' queue__item--failed' : ''}`} data-testid="pending-task" data-state={job.state}>
            <p className="queue__summary">
              {t('workspace.queue.summary', {
                type: t(`workspace.tiles.${contentTypeOf(job.draft)}.title`),
                results: t('workspace.queue.results', { count: job.task.outputs }),
                tokens: t('wallet.tokens', { count: job.task.total }),
              })}
            </p>
            <p className="queue__state" role={job.state === 'failed' ? 'alert' : 'status'}>
              {stateOf(job)}
            </p>
            <div className="queue__actions">
              {job.state !== 'running' ? (
                <IonButton size="small" fill="outline" onClick={() => void edit(job)}>
                  {t('workspace.queue.edit')}
                </IonButton>
              ) : null}
              {job.state === 'failed' ? (
                <IonButton size="small" onClick={() => void resendTask(db, job.id).then(processUploads)}>
                  {t('workspace.queue.resend')}
                </IonButton>
              ) : null}
              {job.state !== 'running' ? (
                <IonButton
                  size="small"
                  fill="clear"
                  color="danger"
                  onClick={() =>
                    void discardTask(db, job.id).then(() => showToast(t('workspace.queue.discarded'), 'info'))
                  }
                >
                  {t('workspace.queue.discard')}
                </IonButton>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
