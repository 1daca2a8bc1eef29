// One picture being edited: the canvas, the four tools, undo/redo/reset, the before/after peek and
// saving (SPEC §2, §8). Saving draws the full-size picture in a worker, queues it in the outbox
// with the edit (the draft is done with in the same step), and follows the upload under a
// blocking overlay: saved, queued until the network returns, or save_error with a retry. Nothing
// is lost on the way: the draft, then the queued job, hold the work.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { IonButton } from '@ionic/react';
import { arrowRedoOutline, arrowUndoOutline, eyeOutline, refreshOutline, saveOutline } from 'ionicons/icons';
import { liveQuery } from 'dexie';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { TEXT_SIZE_MIN, type EditLayer } from '../../../contract/edit';
import { hex, inkOn } from '../../../contract/colour';
import { uploadProgressAtom, processUploads } from '../../capture/uploads';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { showToast } from '../../components/toast';
import { formatBytes } from '../../content/download';
import { currentLocale } from '../../lib/i18n';
import { db } from '../../offline/db';
import type { EditDraftRecord } from '../../offline/records';
import { enqueueEdit, localLogoKey, retryEdit } from '../../offline/jobs/edit';
import { boxOf, EditorCanvas } from './EditorCanvas';
import { loadEditorFonts } from './fonts';
import { hasRememberedLogo, LogoRefused, MAX_LOGO_BYTES, rememberedLogo, storeLogo } from './logo';
import { contrastOn, decodeImage, meanColourUnder, paletteOf, samplePicture } from './picture';
import { EditRenderError, renderEdit } from './render-client';
import { ColourPanel, CropPanel, LayerList, LogoPanel, TextPanel, ToolPanel, ToolTabs } from './ToolPanels';
import type { Tool } from './tools';
import { useEditSession } from './useEditSession';

export interface LoadedPicture {
  blob: Blob;
  image: HTMLImageElement;
}

interface Props {
  draft: EditDraftRecord;
  picture: LoadedPicture;
  logos: ReadonlyMap<string, LoadedPicture>;
  /** The edit is saved (the new asset's id) or queued for the network (null). */
  onSaved: (assetId: string | null) => void;
}

type Saving = { stage: 'rendering' } | { stage: 'uploading'; jobId: string } | { stage: 'failed'; message: string; jobId: string | null } | null;

let layers = 0;
const newLayerId = (kind: string) => `${kind}-${Date.now().toString(36)}-${++layers}`;

export function EditorWorkspace({ draft: initial, picture, logos: initialLogos, onSaved }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const session = useEditSession(draft);
  const { edit, act } = session;
  const [logos, setLogos] = useState(initialLogos);
  const [tool, setTool] = useState<Tool>('text');
  const [chosen, setSelected] = useState<string | null>(null);
  const [typing, setTyping] = useState<string | null>(null);
  const [peek, setPeek] = useState(false);
  const [saving, setSaving] = useState<Saving>(null);
  const [remembered, setRemembered] = useState(false);
  const [fontEpoch, setFontEpoch] = useState(0);
  const progress = useAtomValue(uploadProgressAtom);

  const sample = useMemo(() => samplePicture(picture.image), [picture.image]);
  const palette = useMemo(() => paletteOf(sample), [sample]);
  const images = useMemo(() => new Map([...logos].map(([key, logo]) => [key, logo.image])), [logos]);
  const layer = edit.layers.find((each) => each.id === chosen);
  // A layer undone away is no longer selected.
  const selected = layer ? chosen : null;

  useEffect(() => {
    void hasRememberedLogo().then(setRemembered);
  }, []);

  // The served fonts for every text on the picture, so the preview draws the glyphs the saved picture will have.
  const fontsWanted = edit.layers.flatMap((each) => (each.type === 'text' ? [`${each.font}${each.bold}${each.text}`] : [])).join('|');
  useEffect(() => {
    let current = true;
    void loadEditorFonts(edit.layers)
      .then(() => current && setFontEpoch((epoch) => epoch + 1))
      .catch(() => {});
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the fonts depend on the texts' faces and characters only
  }, [fontsWanted]);

  const contrast = useMemo(() => {
    if (layer?.type !== 'text') return null;
    const box = boxOf(layer, edit.crop.width);
    const halfX = (box.width * layer.scale) / edit.crop.width / 2;
    const halfY = (box.height * layer.scale) / edit.crop.height / 2;
    const behind = layer.plate ?? meanColourUnder(sample, edit, { left: layer.x - halfX, right: layer.x + halfX, top: layer.y - halfY, bottom: layer.y + halfY });
    return contrastOn(layer.color, behind);
    // fontEpoch: the box is measured with the served font once it is in.
  }, [layer, edit, sample, fontEpoch]); // eslint-disable-line react-hooks/exhaustive-deps

  const addText = () => {
    const id = newLayerId('text');
    // A colour that reads on the middle of the picture.
    const middle = meanColourUnder(sample, edit, { left: 0.35, right: 0.65, top: 0.4, bottom: 0.6 });
    const color = hex(inkOn(middle)).toLowerCase();
    act({ type: 'addText', id, text: t('history.editor.text.default'), color, size: Math.max(TEXT_SIZE_MIN, 48) });
    setSelected(id);
    setTyping(id);
  };

  const addLogo = async (photo: { id: string; width: number; height: number; bytes: ArrayBuffer; mime: string } | undefined) => {
    if (!photo) return;
    const key = localLogoKey(photo.id);
    const blob = new Blob([photo.bytes], { type: photo.mime });
    const image = await decodeImage(blob);
    // The session writes the draft's logos with the edit that places the logo.
    setDraft((current) => ({ ...current, logos: [...current.logos, { localKey: key, photoId: photo.id }] }));
    setLogos((current) => new Map([...current, [key, { blob, image }]]));
    const id = newLayerId('logo');
    act({ type: 'addLogo', id, fileKey: key, width: photo.width, height: photo.height });
    setSelected(id);
    setRemembered(true);
  };

  const pickLogo = (file: File) =>
    void storeLogo(file)
      .then(addLogo)
      .catch((error: unknown) => {
        const reason = error instanceof LogoRefused ? error.reason : 'not_image';
        showToast(t(`history.editor.logo.${reason}`, { size: formatBytes(MAX_LOGO_BYTES, currentLocale()) }), 'error');
      });

  // Undo and redo from the keyboard, wherever the focus is but in a text field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT')) return;
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) session.undo();
      else if ((key === 'z' && event.shiftKey) || key === 'y') session.redo();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [session]);

  const save = async () => {
    setTyping(null);
    setSelected(null);
    setSaving({ stage: 'rendering' });
    let jobId: string | null = null;
    try {
      const stored = await session.flush();
      const used = new Set(stored.edit.layers.flatMap((each: EditLayer) => (each.type === 'logo' ? [each.file_key] : [])));
      const rendered = await renderEdit({
        edit: stored.edit,
        source: picture.blob,
        logos: Object.fromEntries([...logos].filter(([key]) => used.has(key)).map(([key, logo]) => [key, logo.blob])),
      });
      const job = await enqueueEdit(db, stored, rendered);
      jobId = job.id;
      setSaving({ stage: 'uploading', jobId });
      void processUploads();
    } catch (error) {
      const message = error instanceof EditRenderError ? t(`history.editor.renderFailed.${error.code}`) : error instanceof Error ? error.message : String(error);
      setSaving({ stage: 'failed', message, jobId });
    }
  };

  // Follows the queued save: done, refused, or waiting for the network.
  const watching = saving?.stage === 'uploading' ? saving.jobId : null;
  useEffect(() => {
    if (!watching) return;
    const subscription = liveQuery(() => db.outbox.get(watching)).subscribe({
      next: (job) => {
        if (job?.kind !== 'edit') return;
        if (job.state === 'done') {
          setSaving(null);
          showToast(t('history.editor.saved'), 'success');
          onSaved(job.assetId ?? null);
        } else if (job.state === 'failed') {
          setSaving({ stage: 'failed', message: job.error ?? '', jobId: job.id });
        } else if (job.state === 'queued' && (job.attempts > 0 || !navigator.onLine)) {
          setSaving(null);
          showToast(t('history.editor.queued'), 'info', 6000);
          onSaved(null);
        }
      },
    });
    return () => subscription.unsubscribe();
  }, [watching, onSaved, t]);

  const retry = useCallback(async () => {
    if (saving?.stage !== 'failed') return;
    if (!saving.jobId) {
      void save();
      return;
    }
    await retryEdit(db, saving.jobId);
    setSaving({ stage: 'uploading', jobId: saving.jobId });
    void processUploads();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- save reads the latest draft itself
  }, [saving]);

  const uploaded = saving?.stage === 'uploading' ? Math.round((progress[saving.jobId] ?? 0) * 100) : 0;
  const mode = tool === 'crop' ? 'crop' : 'layers';
  const canKeepTransparency = picture.blob.type === 'image/png';

  return (
    <div className="editor" data-testid="editor">
      <div className="editor__bar" role="toolbar" aria-label={t('history.editor.title')}>
        <IonButton fill="clear" onClick={session.undo} disabled={!session.canUndo} aria-label={t('history.editor.undo')} title={t('history.editor.undo')} data-testid="undo">
          <Icon icon={arrowUndoOutline} />
        </IonButton>
        <IonButton fill="clear" onClick={session.redo} disabled={!session.canRedo} aria-label={t('history.editor.redo')} title={t('history.editor.redo')} data-testid="redo">
          <Icon icon={arrowRedoOutline} />
        </IonButton>
        <IonButton fill="clear" onClick={() => act({ type: 'reset' })} aria-label={t('history.editor.reset')} title={t('history.editor.reset')} data-testid="reset">
          <Icon icon={refreshOutline} />
        </IonButton>
        <button
          type="button"
          className="editor__peek"
          aria-pressed={peek}
          title={t('history.editor.beforeHint')}
          onPointerDown={() => setPeek(true)}
          onPointerUp={() => setPeek(false)}
          onPointerLeave={() => setPeek(false)}
          onPointerCancel={() => setPeek(false)}
          onKeyDown={(event) => {
            if (event.key === ' ' || event.key === 'Enter') {
              event.preventDefault();
              setPeek(true);
            }
          }}
          onKeyUp={() => setPeek(false)}
          data-testid="peek"
        >
          <Icon icon={eyeOutline} /> {t('history.editor.before')}
        </button>
        <span className="editor__spacer" />
        <IonButton onClick={() => void save()} disabled={saving !== null} data-testid="save">
          <Icon icon={saveOutline} /> {t('history.editor.save')}
        </IonButton>
      </div>
      <div className="editor__body">
        <EditorCanvas
          edit={edit}
          image={picture.image}
          logos={images}
          mode={mode}
          peek={peek}
          selected={selected}
          onSelect={(id) => {
            setSelected(id);
            if (id && tool === 'crop') setTool(edit.layers.find((each) => each.id === id)?.type === 'logo' ? 'logo' : 'text');
          }}
          act={act}
          label={t(mode === 'crop' ? 'history.editor.cropCanvas' : 'history.editor.canvas')}
          typing={typing}
          onTyping={setTyping}
          textLabel={t('history.editor.text.typing')}
          fontEpoch={fontEpoch}
        />
        <div className="editor__tools">
          <ToolTabs tool={tool} onTool={setTool} />
          <ToolPanel tool={tool}>
            {tool === 'text' ? <TextPanel edit={edit} selected={layer} act={act} onSelect={setSelected} onAdd={addText} onType={setTyping} /> : null}
            {tool === 'colour' ? <ColourPanel edit={edit} selected={layer} act={act} onSelect={setSelected} palette={palette} contrast={contrast} /> : null}
            {tool === 'logo' ? (
              <LogoPanel
                edit={edit}
                selected={layer}
                act={act}
                onSelect={setSelected}
                onPick={pickLogo}
                remembered={remembered}
                onRemembered={() => void rememberedLogo().then(addLogo)}
                maxSize={formatBytes(MAX_LOGO_BYTES, currentLocale())}
              />
            ) : null}
            {tool === 'crop' ? <CropPanel edit={edit} act={act} canKeepTransparency={canKeepTransparency} /> : null}
          </ToolPanel>
          {tool !== 'crop' ? <LayerList edit={edit} selected={layer} onSelect={setSelected} /> : null}
        </div>
      </div>
      <Dialog open={saving !== null} onClose={() => saving?.stage === 'failed' && setSaving(null)} labelledBy="editor-saving" dismissible={saving?.stage === 'failed'} testId="saving">
        {saving?.stage === 'failed' ? (
          <>
            <h2 id="editor-saving">{t('history.editor.save')}</h2>
            <p className="editor-warning" role="alert" data-testid="save-error">
              {t('history.editor.save_error', { message: saving.message })}
            </p>
            <div className="dialog__actions">
              <IonButton fill="clear" onClick={() => (saving.jobId ? onSaved(null) : setSaving(null))}>
                {t('history.editor.later')}
              </IonButton>
              <IonButton onClick={() => void retry()} data-testid="save-retry">
                {t('history.editor.retry')}
              </IonButton>
            </div>
          </>
        ) : (
          <div className="editor-saving" role="status" aria-live="polite">
            <Spinner />
            <h2 id="editor-saving">{t('history.editor.saving')}</h2>
            <p>{saving?.stage === 'rendering' ? t('history.editor.rendering') : t('history.editor.uploading', { percent: uploaded })}</p>
          </div>
        )}
      </Dialog>
    </div>
  );
}
