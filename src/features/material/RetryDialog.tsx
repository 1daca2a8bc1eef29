// Making one result again (SPEC §4 retry in material history): the request, then the task polled
// every 5 s; the new result is shown when it is made and the retry finishes 20 s later, when the
// lists reload. The dialog stays until the retry has finished or failed.
import { useEffect, useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { Spinner } from '../../components/Spinner';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../contract/assets';
import { Dialog } from '../../components/Dialog';
import { showToast } from '../../components/toast';
import { getTask, regenerate } from '../../content/api';
import { followRegeneration, type RetryStep } from '../../content/regenerate';
import { requestWalletRefresh } from '../../lib/app-events';

export function RetryDialog({ asset, onFinished, onClose }: { asset: Asset; onFinished: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<RetryStep | { step: 'sending' }>({ step: 'sending' });
  // One key per dialog: sending the request again (a remount) never charges twice.
  const [key] = useState(() => crypto.randomUUID());
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  }, [onFinished]);

  useEffect(() => {
    const controller = new AbortController();
    regenerate(asset.id, key)
      .then((created) => {
        requestWalletRefresh();
        return followRegeneration({
          fetchTask: () => getTask(created.id, controller.signal),
          onStep: setStep,
          onPollError: () => showToast(t('common.errors.internal_server_error'), 'error'),
          signal: controller.signal,
        });
      })
      .then((last) => {
        if (controller.signal.aborted) return;
        if (last.step === 'finished') finished.current();
        if (last.step === 'failed') requestWalletRefresh();
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setStep({ step: 'failed', message: error instanceof Error ? error.message : null });
      });
    return () => controller.abort();
  }, [asset.id, key, t]);

  const over = step.step === 'finished' || step.step === 'failed';
  const result = step.step === 'done' || step.step === 'finished' ? step : null;
  return (
    <Dialog open onClose={onClose} labelledBy="retry-title" dismissible={over} closeLabel={t('history.material.retryDialog.close')} testId="retry-dialog">
      <h2 id="retry-title">{t('history.material.retryDialog.title')}</h2>
      {step.step === 'sending' || step.step === 'waiting' ? (
        <p className="retry__status" role="status">
          <Spinner /> {t('history.material.retryDialog.waiting')}
        </p>
      ) : null}
      {result ? (
        <>
          <p role="status" data-testid="retry-status" data-step={result.step}>
            {t(result.step === 'done' ? 'history.material.retryDialog.done' : 'history.material.retryDialog.finished')}
          </p>
          <div className="preview__media">
            {result.fileType.startsWith('video/') ? (
              <video src={result.url} poster={result.poster ?? undefined} controls muted playsInline data-testid="retry-result" />
            ) : (
              <img src={result.url} alt={t(`task.categories.${asset.category}.title`)} data-testid="retry-result" />
            )}
          </div>
        </>
      ) : null}
      {step.step === 'failed' ? (
        <p role="alert" className="retry__error" data-testid="retry-status" data-step="failed">
          {t('history.material.retry_failed', { message: step.message ?? t('history.material.retryDialog.failed') })}
        </p>
      ) : null}
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={onClose} disabled={!over} data-testid="retry-close">
          {t('history.material.retryDialog.close')}
        </IonButton>
      </div>
    </Dialog>
  );
}
