// /task/retry (SPEC §2, §4, §5): fixing a task whose photos were rejected. The accepted photos and
// the task's styles stay; each rejected view shows its photo and the reason, and takes a new photo
// through the same capture, compression and outbox as /task (so it survives a reload or a lost
// network). The retry button sends a new task once every required view has a photo; after it is
// accepted the page waits 7 s and returns to the workspace.
import { useEffect, useState } from 'react';
import { IonButton } from '@ionic/react';
import { arrowBackOutline } from 'ionicons/icons';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { SHOE_VIEWS, type ShoeView } from '../../../contract/enums';
import { retryConfig, type ContentConfigEntry } from '../../../contract/selection';
import { viewsProblem } from '../../../contract/views';
import { CameraDialog } from '../../capture/CameraDialog';
import { startRetryDraft } from '../../capture/drafts';
import { PhotosInProgress } from '../../capture/PhotosInProgress';
import { PhotoSlot } from '../../capture/PhotoSlot';
import { priceTask } from '../../capture/prices';
import { UploadBanner } from '../../capture/UploadBanner';
import { UnsendablePhotos, unsendableViews } from '../../capture/UnsendablePhotos';
import { startUploads } from '../../capture/uploads';
import { useCatalogue } from '../../capture/useCatalogue';
import { useDraftPhotos } from '../../capture/useDraftPhotos';
import { useSubmitTask } from '../../capture/useSubmitTask';
import { Icon } from '../../components/Icon';
import { OutOfTokensDialog } from '../../components/OutOfTokensDialog';
import { showToast } from '../../components/toast';
import { paths } from '../../config/paths';
import { getFailureDetails, getTask } from '../../content/api';
import { planRetry } from '../../content/retry';
import { HomeLayout } from '../../layouts/HomeLayout';
import '../../lib/account-texts';
import { onlineAtom } from '../../lib/store';
import { retryDraftKey } from '../../offline/records';
import '../../capture/task-page.css';

type Loading = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'not-rejected' } | { state: 'ready'; rejected: Map<ShoeView, { reason: string; url: string | null }> };

export default function TaskRetryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // Ionic keeps the page mounted after it is left: it goes on showing its task meanwhile.
  const here = location.pathname === paths.task_retry;
  const fromUrl = here ? new URLSearchParams(location.search).get('task_id') : null;
  const [taskId, setTaskId] = useState(fromUrl);
  if (fromUrl && fromUrl !== taskId) setTaskId(fromUrl);
  const key = taskId ? retryDraftKey(taskId) : null;
  const photos = useDraftPhotos(key);
  const submission = useSubmitTask(photos);
  const { draft } = photos;
  const { offers } = useCatalogue();
  const [loading, setLoading] = useState<Loading>({ state: 'loading' });
  const [camera, setCamera] = useState<ShoeView[] | null>(null);
  const online = useAtomValue(onlineAtom);

  useEffect(() => {
    startUploads();
  }, []);

  // The task and why its photos were rejected; the retry draft is made from them once.
  useEffect(() => {
    if (!taskId) return;
    const controller = new AbortController();
    Promise.all([getTask(taskId, controller.signal), getFailureDetails(taskId, controller.signal)])
      .then(async ([task, details]) => {
        if (task.status !== 'failed' || task.failure_type !== 'manual_rejection') {
          setLoading({ state: 'not-rejected' });
          return;
        }
        const { retry, rejected } = planRetry(task, details);
        await startRetryDraft(retry);
        setLoading({ state: 'ready', rejected });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoading({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [taskId, online]);

  if (here && !fromUrl) return <Navigate to={paths.task_history} replace />;
  if (!taskId || !key) return null;

  const retry = draft?.retry;
  const newViews = SHOE_VIEWS.filter((view) => draft?.slots[view]);
  const keptViews = (retry?.kept ?? []).map((k) => k.view).filter((view) => !draft?.slots[view]);
  const views = [...new Set([...keptViews, ...newViews])];
  const config = retry ? retryConfig(retry.contentConfig as ContentConfigEntry[], views) : [];
  const priced = priceTask(config, views, offers);
  const type = retry?.contentType ?? 'product';
  const unsendable = unsendableViews(draft);

  const send = async () => {
    if (!draft || !retry || photos.processing) return;
    const problem = viewsProblem(views);
    if (problem) {
      showToast(t(problem === 'viewSize' ? 'task.errors.viewSize' : 'task.errors.required'), 'error');
      return;
    }
    if (priced.outputs.length === 0) {
      showToast(t('history.retry.params_invalid'), 'error');
      return;
    }
    if (unsendable.length > 0) return;
    const names = { type: t(`workspace.tiles.${type}.title`), count: priced.total };
    await submission.submit(
      { draft, config, total: priced.total, outputs: priced.outputs.length },
      { queued: t('history.retry.queued', names), sent: t('history.retry.sent', names), refused: (message) => t('history.retry.failed', { message }) },
    );
  };

  const title = t('history.retry.title');
  const rejected = loading.state === 'ready' ? loading.rejected : new Map<ShoeView, { reason: string; url: string | null }>();
  return (
    <HomeLayout title={title} testId="task-retry">
      <div className="task__head">
        <button type="button" className="icon-button" onClick={() => navigate(paths.task_history)} aria-label={t('task.back')}>
          <Icon icon={arrowBackOutline} />
        </button>
        <h1>{title}</h1>
      </div>
      {loading.state === 'loading' ? <p role="status">{t('history.retry.loading')}</p> : null}
      {loading.state === 'failed' ? (
        <div className="task__banner task__banner--offline" role="alert">
          {t('history.retry.loadFailed')} {loading.message}
        </div>
      ) : null}
      {loading.state === 'not-rejected' ? (
        <div className="task__banner" role="status">
          <span>{t('history.retry.notRejected')}</span>
          <IonButton size="small" fill="outline" routerLink={paths.task_history}>
            {t('history.retry.toHistory')}
          </IonButton>
        </div>
      ) : null}
      {loading.state === 'ready' && retry ? (
        <>
          <p>{t('history.retry.lead')}</p>
          <UploadBanner />
          <ul className="task__slots">
            {SHOE_VIEWS.map((view) => {
              const kept = retry.kept.find((k) => k.view === view);
              const refused = rejected.get(view);
              const replaced = Boolean(draft?.slots[view]);
              return (
                <PhotoSlot
                  key={view}
                  view={view}
                  draftKey={key}
                  photos={photos}
                  onShoot={(one) => setCamera([one])}
                  emptyState={kept ? 'kept' : refused ? 'rejected' : 'empty'}
                  fallback={
                    kept ? { url: kept.url, alt: t('task.slot.photoAlt', { view: t(`task.views.${view}`) }) } : refused ? { url: refused.url, alt: t('history.rejection.photoAlt', { view: t(`task.views.${view}`) }) } : undefined
                  }
                >
                  {refused && !replaced ? (
                    <p className="slot__error" data-testid={`rejected-${view}`}>
                      {t('history.retry.rejected', { reason: refused.reason })}
                    </p>
                  ) : null}
                  {kept && !replaced ? <p className="slot__state">{t('history.retry.kept')}</p> : null}
                  {replaced && (kept || refused) ? <p className="slot__state">{t('history.retry.replaced')}</p> : null}
                </PhotoSlot>
              );
            })}
          </ul>
          <p>{t('history.retry.styles', { names: [...new Set(priced.outputs.map((o) => t(`task.categories.${o.category}.title`)))].join(', ') })}</p>
          <p data-testid="retry-cost">{t('history.retry.cost', { count: priced.total })}</p>
          {submission.leaving ? (
            <p className="task__banner" role="status" data-testid="task-leaving">
              {t('history.retry.leaving')}
            </p>
          ) : null}
          <UnsendablePhotos views={unsendable} />
          <div className="task__bottom">
            <PhotosInProgress photos={photos} />
            <IonButton expand="block" onClick={() => void send()} disabled={submission.sending || photos.processing || unsendable.length > 0} data-testid="retry-submit">
              {t('history.retry.submit')}
            </IonButton>
          </div>
        </>
      ) : null}
      {submission.outOfTokens ? <OutOfTokensDialog open {...submission.outOfTokens} onClose={submission.dismissOutOfTokens} /> : null}
      {camera ? (
        <CameraDialog
          views={camera}
          onShot={(view, photo) => photos.addPhoto(view, new File([photo], `${view}.jpg`, { type: 'image/jpeg' }))}
          onClose={() => setCamera(null)}
          onPickFiles={() => setCamera(null)}
        />
      ) : null}
    </HomeLayout>
  );
}
