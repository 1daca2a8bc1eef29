// Edited pictures saved on this device that the server does not have yet (DESIGN §3): waiting for
// the network, or refused, with a retry. Read live from the outbox, so it follows every runner.
import { useEffect, useRef } from 'react';
import { IonButton } from '@ionic/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { processUploads, startUploads } from '../../capture/uploads';
import { db } from '../../offline/db';
import { pendingEdits, retryEdit } from '../../offline/jobs/edit';

export function PendingEdits({ onSaved }: { onSaved: () => void }) {
  const { t } = useTranslation();
  const jobs = useLiveQuery(() => pendingEdits(db), [], []);
  const waiting = jobs.filter((job) => job.state !== 'failed');
  const failed = jobs.filter((job) => job.state === 'failed');

  useEffect(() => {
    startUploads();
  }, []);
  // One that was waiting is saved: the lists show it.
  const count = jobs.length;
  const before = useRef(count);
  useEffect(() => {
    if (count < before.current) onSaved();
    before.current = count;
  }, [count, onSaved]);

  if (jobs.length === 0) return null;
  return (
    <div className="material-edits" data-testid="pending-edits">
      {waiting.length > 0 ? <p role="status">{t('history.editor.pendingEdits', { count: waiting.length })}</p> : null}
      {failed.map((job) => (
        <p key={job.id} role="alert">
          {t('history.editor.failedEdit', { message: job.error ?? '' })}{' '}
          <IonButton size="small" onClick={() => void retryEdit(db, job.id).then(processUploads)} data-testid="pending-edit-retry">
            {t('history.editor.retry')}
          </IonButton>
        </p>
      ))}
    </div>
  );
}
