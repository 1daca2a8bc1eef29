// /task (SPEC §2, §4, §5). Page 1: the shooting requirements, eight slots (five required views,
// the sole and two details) filled from files, the shoe's measurements, and the next-page button.
// Every photo is compressed in a worker, stored in IndexedDB at once and queued for upload, so a
// reload, a lost network or a closed app loses nothing; the slots show where each upload stands.
// Page 2: the styles, the confirmation dialog and the submission, which goes through the outbox
// so a task added on a train is sent once, by itself, when the network returns.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { IonButton } from '@ionic/react';
import { arrowBackOutline, cameraOutline, cloudOfflineOutline, informationCircleOutline } from 'ionicons/icons';
import { useAtomValue } from 'jotai';
import type { CategoryOffer } from '../../../contract/content';
import {
  EMPTY_SELECTION,
  plannedOutputs,
  priceOutputs,
  selectionProblem,
  toContentConfig,
  withoutOutputs,
  DEFAULT_PRICES,
  type PlannedOutput,
  type Prices,
  type Selection,
  type ShoeParamsPayload,
} from '../../../contract/selection';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import '../../lib/account-texts';
import { CONTENT_TYPES, SHOE_VIEWS, type ContentType, type ShoeView } from '../../../contract/enums';
import { isAcceptedPhoto } from '../../../contract/capture';
import { assignToSlots, viewsProblem } from '../../../contract/views';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { showToast } from '../../components/toast';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { onlineAtom } from '../../lib/store';
import { ViewIllustration } from '../../capture/ViewIllustration';
import { CameraDialog } from '../../capture/CameraDialog';
import { loadDraft, saveShoeParams, savePage, saveStyles, saveWarnings } from '../../capture/drafts';
import { PhotoSlot } from '../../capture/PhotoSlot';
import { UploadBanner } from '../../capture/UploadBanner';
import { UnsendablePhotos, unsendableViews } from '../../capture/UnsendablePhotos';
import { useDraftPhotos } from '../../capture/useDraftPhotos';
import { POST_SUBMIT_WAIT_MS, SUBMIT_TOAST_MS, submitTask } from '../../capture/submit';
import { OutOfTokensDialog } from '../../components/OutOfTokensDialog';
import { refreshBalance } from '../../account/session';
import { balanceAtom, store } from '../../lib/store';
import { requestWalletRefresh } from '../../lib/app-events';
import { currentLocale } from '../../lib/i18n';
import { loadContentConfig } from '../../capture/api/content-config';
import { ConfirmDialog } from './ConfirmDialog';
import { StylesStep } from './StylesStep';
import { heldPhoto } from '../../capture/held';
import { verifyAngle } from '../../capture/api/verify-angle';
import { outboxRunAtom, startUploads } from '../../capture/uploads';
import type { ShoeParams } from '../../offline/db';
import '../../capture/task-page.css';
import './task.css';

const PARAMS = ['shaftHeight', 'heelHeight', 'shaftLatitude', 'ankleLatitude'] as const;

/** The measurements under the server's names (SPEC §3). */
const SERVER_PARAM: Record<(typeof PARAMS)[number], keyof ShoeParamsPayload> = {
  shaftHeight: 'boot_height',
  heelHeight: 'heel_height',
  shaftLatitude: 'boot_circumference',
  ankleLatitude: 'ankle_circumference',
};


/** Task submission (SPEC §4): none, pending while the confirmation is open, processing once confirmed. */
type Submission = 'none' | 'pending' | 'processing';

function selectionOf(styles: unknown): Selection {
  const value = styles as Partial<Selection> | null;
  if (!value || typeof value !== 'object' || typeof value.categories !== 'object' || value.categories === null) return EMPTY_SELECTION;
  return { categories: value.categories, custom: value.custom === true, prompt: typeof value.prompt === 'string' ? value.prompt : '' };
}

/** Prices in force: the server's, or the defaults until it has answered. */
function pricesOf(offers: readonly CategoryOffer[]): Prices {
  return { ...DEFAULT_PRICES, ...Object.fromEntries(offers.map((offer) => [offer.category, offer.price])) };
}

type Catalogue = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; offers: CategoryOffer[]; offline: boolean };

function contentTypeOf(search: string): ContentType | null {
  const type = new URLSearchParams(search).get('type');
  return CONTENT_TYPES.find((t) => t === type) ?? null;
}

export default function TaskPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const type = contentTypeOf(useLocation().search);
  const photos = useDraftPhotos(type);
  const { draft, setDraft, reload, held } = photos;
  const [requirementsOpen, setRequirementsOpen] = useState(false);
  const [camera, setCamera] = useState<ShoeView[] | null>(null);
  const [params, setParams] = useState<Record<string, string>>({});
  const outboxRuns = useAtomValue(outboxRunAtom);
  const online = useAtomValue(onlineAtom);
  const batchInput = useRef<HTMLInputElement>(null);
  const balance = useAtomValue(balanceAtom);
  const [catalogue, setCatalogue] = useState<Catalogue>({ state: 'loading' });
  const [submission, setSubmission] = useState<Submission>('none');
  const [removed, setRemoved] = useState<PlannedOutput[]>([]);
  const [outOfTokens, setOutOfTokens] = useState<{ total: number; balance: number } | null>(null);
  const [leaving, setLeaving] = useState(false);
  const onPage2 = draft?.page === 2;

  const fetchCatalogue = useCallback(() => {
    void loadContentConfig(currentLocale())
      .then(({ catalogue: loaded, offline }) => setCatalogue({ state: 'ready', offers: loaded.categories, offline }))
      .catch((error: unknown) => setCatalogue({ state: 'failed', message: error instanceof Error ? error.message : String(error) }));
  }, []);
  useEffect(() => {
    if (onPage2) fetchCatalogue();
  }, [onPage2, fetchCatalogue, online]);

  useEffect(() => {
    startUploads();
    if (!type) return;
    void loadDraft(type).then((loaded) => {
      setDraft(loaded);
      setParams(Object.fromEntries(Object.entries(loaded.shoeParams).map(([k, v]) => [k, String(v)])));
      if (Object.keys(loaded.slots).length === 0) setRequirementsOpen(true);
    });
  }, [type, setDraft]);

  // While a task is being sent, the page keeps showing what was submitted (the stored draft has
  // already started over).
  const submitting = useRef(false);
  useEffect(() => {
    if (type)
      void loadDraft(type).then((loaded) => {
        if (!submitting.current) setDraft(loaded);
      });
  }, [outboxRuns, type, setDraft]);

  // Right after a photo arrives, the server checks it against the shooting requirements; what it
  // finds stays on the slot so the seller can retake before paying.
  const checking = useRef(new Set<string>());
  useEffect(() => {
    if (!type || !draft) return;
    for (const view of SHOE_VIEWS) {
      const slot = draft.slots[view];
      if (!slot || slot.state !== 'uploaded' || !slot.materialId || slot.warnings || checking.current.has(slot.photoId)) continue;
      checking.current.add(slot.photoId);
      void verifyAngle(slot.materialId, view)
        .then((result) => saveWarnings(type, view, slot.photoId, result.findings.filter((f) => !f.ok).map((f) => f.message)))
        .then(() => loadDraft(type))
        .then(setDraft)
        .catch(() => checking.current.delete(slot.photoId));
    }
  }, [draft, type, setDraft]);

  if (!type) return <Navigate to={paths.home} replace />;

  const { addPhoto } = photos;

  const addBatch = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    const refused = files.filter((file) => !isAcceptedPhoto(file));
    if (refused.length > 0) showToast(t('task.errors.format'), 'error');
    const filled = SHOE_VIEWS.filter((view) => draft?.slots[view] || heldPhoto(held, type, view));
    const { placed, leftOver } = assignToSlots(files.filter(isAcceptedPhoto), filled);
    if (leftOver.length > 0) showToast(t('task.batchLeftOver', { count: leftOver.length }), 'info');
    for (const [view, file] of placed) await addPhoto(view, file);
  };

  const saveParam = (name: (typeof PARAMS)[number], text: string) => {
    setParams((p) => ({ ...p, [name]: text }));
    const next: ShoeParams = { ...draft?.shoeParams };
    const value = Number(text.replace(',', '.'));
    if (text.trim() === '') delete next[name];
    else if (Number.isFinite(value) && value >= 0 && value <= 100) next[name] = value;
    else return;
    void saveShoeParams(type, next).then(reload);
  };

  const next = async () => {
    const problem = viewsProblem(Object.keys(draft?.slots ?? {}) as ShoeView[]);
    if (problem) {
      showToast(t(problem === 'viewSize' ? 'task.errors.viewSize' : 'task.errors.required'), 'error');
      return;
    }
    await savePage(type, 2);
    await reload();
  };

  const back = async () => {
    if (draft?.page === 2) {
      await savePage(type, 1);
      await reload();
    } else {
      navigate(paths.home);
    }
  };

  /** The six guided angles still without a photo (all six when every one has one). */
  const sequence = () => {
    const six = SHOE_VIEWS.slice(0, 6);
    const empty = six.filter((view) => !draft?.slots[view]);
    return empty.length > 0 ? empty : six;
  };
  const shot = (view: ShoeView, photo: Blob) => addPhoto(view, new File([photo], `${view}.jpg`, { type: 'image/jpeg' }));

  const selection = selectionOf(draft?.styles);
  const offers = catalogue.state === 'ready' ? catalogue.offers : [];
  const uploadedViews = SHOE_VIEWS.filter((view) => draft?.slots[view]);
  const unsendable = unsendableViews(draft);
  const shoeParams: ShoeParamsPayload = Object.fromEntries(
    PARAMS.filter((name) => draft?.shoeParams[name] !== undefined).map((name) => [SERVER_PARAM[name], draft!.shoeParams[name]]),
  );
  const fullConfig = toContentConfig(selection, type, shoeParams);
  const config = withoutOutputs(fullConfig, removed, uploadedViews);
  const priced = priceOutputs(plannedOutputs(config, uploadedViews), pricesOf(offers));

  const changeStyles = (next: Selection) => {
    setDraft((current) => (current ? { ...current, styles: next } : current));
    void saveStyles(type, next);
  };

  const addTask = () => {
    const problem = selectionProblem(selection, type);
    if (problem) {
      showToast(t(`task.errors.${problem}`), 'error');
      return;
    }
    if (unsendable.length > 0) return;
    setRemoved([]);
    setSubmission('pending');
    if (navigator.onLine) void refreshBalance().catch(() => {});
  };

  const confirm = async () => {
    if (!draft) return;
    const { total, outputs } = priced;
    if (balance !== null && total > balance) {
      setSubmission('none');
      setOutOfTokens({ total, balance });
      return;
    }
    setSubmission('processing');
    submitting.current = true;
    const typeName = t(`workspace.tiles.${type}.title`);
    const outcome = await submitTask({ draft: { ...draft, styles: selection }, config, total, outputs: outputs.length });
    if (outcome.kind === 'failed') {
      // Nothing was queued: the dialog closes and the draft shows what stands in the way.
      submitting.current = false;
      setSubmission('none');
      await reload();
      showToast(outcome.view ? t('task.errors.unsendable', { views: t(`task.views.${outcome.view}`) }) : t('task.errors.submitFailed'), 'error', SUBMIT_TOAST_MS);
      return;
    }
    if (outcome.kind === 'refused') {
      submitting.current = false;
      setSubmission('none');
      if (outcome.draft) setDraft(outcome.draft);
      else await reload();
      if (outcome.status === 402) {
        await refreshBalance().catch(() => {});
        setOutOfTokens({ total, balance: store.get(balanceAtom) ?? 0 });
      } else {
        showToast(outcome.message, 'error', SUBMIT_TOAST_MS);
      }
      return;
    }
    if (outcome.kind === 'queued') {
      showToast(t('task.submit.queued', { type: typeName, count: total }), 'info', SUBMIT_TOAST_MS);
    } else {
      showToast(t('task.submit.created', { type: typeName, count: total }), 'success', SUBMIT_TOAST_MS);
      setLeaving(true);
      await new Promise((resolve) => setTimeout(resolve, POST_SUBMIT_WAIT_MS));
      requestWalletRefresh();
    }
    await startOver();
    navigate(paths.home);
  };

  /** After a task is on its way, the page holds the fresh draft for the next shoe. */
  const startOver = async () => {
    const fresh = await loadDraft(type);
    submitting.current = false;
    setDraft(fresh);
    setParams({});
    setRemoved([]);
    setSubmission('none');
    setLeaving(false);
  };

  const title = t(`task.titles.${type}`);
  return (
    <HomeLayout title={title} testId="task-page">
      <div className="task__head">
        <button type="button" className="icon-button" onClick={() => void back()} aria-label={t('task.back')}>
          <Icon icon={arrowBackOutline} />
        </button>
        <h1>{title}</h1>
      </div>
      <UploadBanner />

      {onPage2 ? (
        <>
          {catalogue.state === 'loading' ? <p role="status">{t('task.styles.loading')}</p> : null}
          {catalogue.state === 'failed' ? (
            <div className="task__banner task__banner--offline" role="alert">
              <span>
                {t('task.styles.loadFailed')} {catalogue.message}
              </span>
              <IonButton
                size="small"
                fill="outline"
                onClick={() => {
                  setCatalogue({ state: 'loading' });
                  fetchCatalogue();
                }}
              >
                {t('task.styles.retry')}
              </IonButton>
            </div>
          ) : null}
          {catalogue.state === 'ready' ? (
            <>
              {catalogue.offline ? (
                <p className="task__banner task__banner--offline" role="status">
                  <Icon icon={cloudOfflineOutline} /> {t('task.styles.offline')}
                </p>
              ) : null}
              <StylesStep
                type={type}
                selection={selection}
                offers={catalogue.offers}
                onChange={changeStyles}
                onPrompt={(prompt) => changeStyles({ ...selection, prompt })}
              />
            </>
          ) : null}
          {leaving ? (
            <p className="task__banner" role="status" data-testid="task-leaving">
              {t('task.submit.leaving')}
            </p>
          ) : null}
          <UnsendablePhotos views={unsendable} />
          <div className="task__bottom">
            <IonButton
              expand="block"
              onClick={addTask}
              disabled={submission !== 'none' || catalogue.state !== 'ready' || unsendable.length > 0}
              data-testid="task-add"
            >
              {t('task.addTask')}
            </IonButton>
          </div>
        </>
      ) : (
        <>
          <div className="task__toolbar">
            <p className="task__step">{t('task.stepPhotos')}</p>
            <div className="task__tools">
              <button type="button" className="link-button" onClick={() => setRequirementsOpen(true)}>
                <Icon icon={informationCircleOutline} /> {t('task.requirements.show')}
              </button>
              <IonButton size="small" onClick={() => setCamera(sequence())} data-testid="open-camera">
                <Icon icon={cameraOutline} /> {t('task.camera')}
              </IonButton>
            </div>
          </div>
          <ul className="task__slots">
            {SHOE_VIEWS.map((view) => (
              <PhotoSlot key={view} view={view} draftKey={type} photos={photos} onShoot={(one) => setCamera([one])} movable />
            ))}
          </ul>
          <div className="task__batch">
            <IonButton fill="outline" onClick={() => batchInput.current?.click()} data-testid="batch-upload">
              {t('task.batch')}
            </IonButton>
            <input
              ref={batchInput}
              className="visually-hidden"
              type="file"
              accept="image/jpeg,image/png"
              multiple
              data-testid="batch-input"
              aria-label={t('task.batch')}
              onChange={(event) => void addBatch(event)}
            />
          </div>
          <fieldset className="task__params">
            <legend>{t('task.params.title')}</legend>
            {PARAMS.map((name) => (
              <div className="field" key={name}>
                <label htmlFor={`param-${name}`}>{t(`task.params.${name}`)}</label>
                <input
                  id={`param-${name}`}
                  inputMode="decimal"
                  value={params[name] ?? ''}
                  onChange={(event) => saveParam(name, event.target.value)}
                />
              </div>
            ))}
          </fieldset>
          <div className="task__bottom">
            <IonButton expand="block" onClick={() => void next()} data-testid="task-next">
              {t('task.next')}
            </IonButton>
          </div>
        </>
      )}

      <Dialog
        open={requirementsOpen}
        onClose={() => setRequirementsOpen(false)}
        labelledBy="requirements-title"
        closeLabel={t('form.close')}
        testId="requirements-dialog"
      >
        <h2 id="requirements-title">{t('task.requirements.title')}</h2>
        <ul className="requirements__rules">
          <li>{t('task.requirements.background')}</li>
          <li>{t('task.requirements.light')}</li>
          <li>{t('task.requirements.frame')}</li>
        </ul>
        <p>{t('task.requirements.angles')}</p>
        <ul className="requirements__angles">
          {SHOE_VIEWS.slice(0, 6).map((view) => (
            <li key={view}>
              <ViewIllustration view={view} className="requirements__drawing" />
              <span>{t(`task.views.${view}`)}</span>
            </li>
          ))}
        </ul>
        <div className="dialog__actions">
          <IonButton fill="clear" onClick={() => setRequirementsOpen(false)}>
            {t('task.requirements.close')}
          </IonButton>
          <IonButton
            fill="outline"
            onClick={() => {
              setRequirementsOpen(false);
              batchInput.current?.click();
            }}
          >
            {t('task.requirements.upload')}
          </IonButton>
          <IonButton
            onClick={() => {
              setRequirementsOpen(false);
              setCamera(sequence());
            }}
            data-testid="requirements-camera"
          >
            {t('task.requirements.camera')}
          </IonButton>
        </div>
      </Dialog>
      <ConfirmDialog
        open={submission !== 'none' && !leaving}
        outputs={priced.outputs}
        total={priced.total}
        balance={balance}
        busy={submission === 'processing'}
        onRemove={(output) => setRemoved((list) => [...list, output])}
        onCancel={() => setSubmission('none')}
        onConfirm={() => void confirm()}
      />
      {outOfTokens ? (
        <OutOfTokensDialog open total={outOfTokens.total} balance={outOfTokens.balance} onClose={() => setOutOfTokens(null)} />
      ) : null}
      {camera ? (
        <CameraDialog
          views={camera}
          onShot={shot}
          onClose={() => setCamera(null)}
          onPickFiles={() => {
            setCamera(null);
            batchInput.current?.click();
          }}
        />
      ) : null}
    </HomeLayout>
  );
}
