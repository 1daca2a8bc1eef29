// /image/edit and /editor (SPEC §2 Image editor). /image/edit?asset_id=…(&asset_id=…) edits the
// results selected in My materials, one at a time, with a strip to move between them (none
// selected: edit_size_invalid). /editor opens on a picture the seller picks from the device or
// from My materials (then /editor?asset_id=…). The page loads the picture and the draft and hands
// them to the workspace; an editor crash shows website_error with the work kept in the draft.
import { Component, useCallback, useEffect, useMemo, useState, type ErrorInfo, type ReactNode } from 'react';
import { IonButton } from '@ionic/react';
import { checkmarkCircle, imageOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { MATERIAL_SECTIONS, type Asset } from '../../../contract/assets';
import { isAcceptedPhoto } from '../../../contract/capture';
import { Icon } from '../../components/Icon';
import { MediaThumb } from '../../components/MediaThumb';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { listAssets } from '../../content/api';
import { HomeLayout } from '../../layouts/HomeLayout';
import '../../lib/account-texts';
import { db } from '../../offline/db';
import type { EditDraftRecord } from '../../offline/records';
import { EditorWorkspace, type LoadedPicture } from './EditorWorkspace';
import { FileButton } from './FileButton';
import { draftLogos, draftPicture, NotAPicture, openAsset, openDeviceFile } from './open';
import { releaseImage } from './picture';
import './editor.css';

type Opened = { draft: EditDraftRecord; picture: LoadedPicture; logos: Map<string, LoadedPicture> };
type Loading = { state: 'loading'; percent?: number } | { state: 'failed'; message: string } | { state: 'ready'; opened: Opened };

/** Loads a draft's picture (unless already decoded) and logos for the workspace. */
async function loaded(draft: EditDraftRecord, picture?: LoadedPicture): Promise<Opened> {
  return { draft, picture: picture ?? (await draftPicture(draft)), logos: await draftLogos(draft) };
}

function release(opened: Opened) {
  releaseImage(opened.picture.image);
  for (const logo of opened.logos.values()) releaseImage(logo.image);
}

/** Opens an asset's edit (the kept draft, or a new one) and tells what happened. */
function useAssetEdit(assetId: string | null) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState<Loading>({ state: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!assetId) return;
    const abort = new AbortController();
    let opened: Opened | null = null;
    openAsset(assetId, abort.signal)
      .then(async ({ draft, resumed, sourceGone, picture }) => {
        opened = await loaded(draft, picture);
        if (abort.signal.aborted) return release(opened);
        setNotice(resumed ? t('history.editor.resumed') : sourceGone ? t('history.editor.sourceGone') : null);
        setLoading({ state: 'ready', opened });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof NotAPicture ? t('history.editor.video') : t('history.editor.load_failed', { message: error instanceof Error ? error.message : '' });
        setLoading({ state: 'failed', message });
      });
    return () => {
      abort.abort();
      if (opened) release(opened);
    };
  }, [assetId, t]);
  return { loading, notice };
}

export default function EditorPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const ids = useMemo(() => [...new Set(new URLSearchParams(location.search).getAll('asset_id'))], [location.search]);
  const selection = location.pathname === paths.image_edit;
  const [index, setIndex] = useState(0);
  const [saved, setSaved] = useState<ReadonlySet<string>>(new Set());
  const current = ids[Math.min(index, ids.length - 1)] ?? null;
  const title = t('history.editor.title');

  const onSaved = useCallback(
    () => {
      if (!current) {
        navigate(paths.material);
        return;
      }
      const done = new Set([...saved, current]);
      setSaved(done);
      const next = ids.findIndex((id) => !done.has(id));
      // Saved or queued, the next selected picture opens; after the last, My materials.
      if (next >= 0) setIndex(next);
      else navigate(paths.material);
    },
    [current, ids, navigate, saved],
  );

  return (
    <HomeLayout title={title} testId="editor-page">
      <EditorBoundary>
        <h1 className="editor-title">{title}</h1>
        {selection && ids.length === 0 ? (
          <div className="editor-empty" role="alert">
            <p>{t('history.material.edit_size_invalid')}</p>
            <IonButton routerLink={paths.material}>{t('history.editor.toMaterials')}</IonButton>
          </div>
        ) : null}
        {ids.length > 1 ? <Strip ids={ids} index={index} saved={saved} onPick={setIndex} /> : null}
        {current ? <AssetEditor key={current} assetId={current} onSaved={onSaved} /> : null}
        {!selection && ids.length === 0 ? <DeviceEditor onPickAsset={(id) => navigate(`${paths.editor}?asset_id=${encodeURIComponent(id)}`)} onSaved={() => navigate(paths.material)} /> : null}
      </EditorBoundary>
    </HomeLayout>
  );
}

function Strip({ ids, index, saved, onPick }: { ids: string[]; index: number; saved: ReadonlySet<string>; onPick: (index: number) => void }) {
  const { t } = useTranslation();
  return (
    <nav className="editor-strip" aria-label={t('history.editor.strip')}>
      {ids.map((id, at) => (
        <button key={id} type="button" aria-current={at === index ? 'true' : undefined} onClick={() => onPick(at)} data-testid="strip-item">
          {t('history.editor.stripItem', { index: at + 1, count: ids.length })}
          {saved.has(id) ? <Icon icon={checkmarkCircle} /> : null}
        </button>
      ))}
    </nav>
  );
}

function AssetEditor({ assetId, onSaved }: { assetId: string; onSaved: (assetId: string | null) => void }) {
  const { t } = useTranslation();
  const { loading, notice } = useAssetEdit(assetId);
  if (loading.state === 'loading') return <Loading label={t('history.editor.loading')} />;
  if (loading.state === 'failed') return <p className="editor-warning" role="alert" data-testid="editor-load-failed">{loading.message}</p>;
  return (
    <>
      {notice ? <p className="editor-note" role="status">{notice}</p> : null}
      <EditorWorkspace draft={loading.opened.draft} picture={loading.opened.picture} logos={loading.opened.logos} onSaved={onSaved} />
    </>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <p className="editor-loading" role="status">
      <Spinner /> {label}
    </p>
  );
}

/** /editor without an asset: the picture kept from before, or a choice of one. */
function DeviceEditor({ onPickAsset, onSaved }: { onPickAsset: (id: string) => void; onSaved: (assetId: string | null) => void }) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState<Loading | null>({ state: 'loading' });
  const [choosing, setChoosing] = useState(false);

  const open = useCallback(async (draft: EditDraftRecord | undefined) => {
    if (!draft) return setLoading(null);
    try {
      setLoading({ state: 'ready', opened: await loaded(draft) });
    } catch {
      setLoading({ state: 'failed', message: t('history.editor.not_image') });
    }
  }, [t]);

  useEffect(() => {
    void db.edits.get('device').then(open, () => setLoading(null));
  }, [open]);

  const pick = async (file: File) => {
    if (!isAcceptedPhoto(file)) {
      setLoading({ state: 'failed', message: t('history.editor.not_image') });
      return;
    }
    setLoading({ state: 'loading', percent: 0 });
    try {
      await open(await openDeviceFile(file, (percent) => setLoading({ state: 'loading', percent })));
    } catch {
      setLoading({ state: 'failed', message: t('history.editor.not_image') });
    }
  };

  const picker = (
    <div className="editor-pick">
      <h2>{t('history.editor.pickTitle')}</h2>
      <p className="editor-note">{t('history.editor.pickHint')}</p>
      <div className="editor-row">
        <FileButton accept="image/jpeg,image/png" onFile={(file) => void pick(file)} testId="pick-device" inputTestId="device-input">
          <Icon icon={imageOutline} /> {t('history.editor.pickDevice')}
        </FileButton>
        <IonButton fill="outline" onClick={() => setChoosing(true)} data-testid="pick-materials">
          {t('history.editor.pickMaterials')}
        </IonButton>
      </div>
      {choosing ? <MaterialChoice onPick={onPickAsset} /> : null}
    </div>
  );

  if (loading?.state === 'loading') return <Loading label={loading.percent !== undefined ? t('history.editor.preparing', { percent: loading.percent }) : t('history.editor.loading')} />;
  if (loading?.state === 'ready') {
    return (
      <>
        <IonButton fill="clear" size="small" onClick={() => setLoading(null)}>
          {t('history.editor.another')}
        </IonButton>
        <EditorWorkspace draft={loading.opened.draft} picture={loading.opened.picture} logos={loading.opened.logos} onSaved={onSaved} />
      </>
    );
  }
  return (
    <>
      {loading?.state === 'failed' ? <p className="editor-warning" role="alert">{loading.message}</p> : null}
      {picker}
    </>
  );
}

/** The seller's pictures in My materials, newest first in each section, to pick one to edit. */
function MaterialChoice({ onPick }: { onPick: (id: string) => void }) {
  const { t } = useTranslation();
  const [assets, setAssets] = useState<Asset[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    Promise.all(MATERIAL_SECTIONS.filter((section) => section !== 'CREATIVE_VIDEO').map((section) => listAssets(section, 1, abort.signal)))
      .then((pages) => setAssets(pages.flatMap((page) => page.data).filter((asset) => asset.file_type.startsWith('image/'))))
      .catch(() => !abort.signal.aborted && setFailed(true));
    return () => abort.abort();
  }, []);
  if (failed) return <p className="editor-warning" role="alert">{t('common.errors.internal_server_error')}</p>;
  if (!assets) return <Loading label={t('history.editor.materialsLoading')} />;
  if (assets.length === 0) return <p className="editor-note">{t('history.editor.materialsEmpty')}</p>;
  return (
    <ul className="editor-choices">
      {assets.map((asset) => (
        <li key={asset.id}>
          <button type="button" onClick={() => onPick(asset.id)} data-testid="pick-asset">
            <MediaThumb url={asset.file_url} poster={asset.poster_url} fileType={asset.file_type} alt={t('history.editor.pickItem', { name: t(`history.material.sections.${asset.category === 'PRODUCT2' ? 'PRODUCT' : asset.category}`) })} />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** An editor crash: website_error, and a way on; the draft in IndexedDB still holds the work. */
class EditorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('The editor failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <CrashNotice onAgain={() => this.setState({ failed: false })} />;
  }
}

function CrashNotice({ onAgain }: { onAgain: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="editor-empty" role="alert" data-testid="editor-crash">
      <p>{t('common.errors.website_error')}</p>
      <IonButton onClick={onAgain}>{t('history.editor.retry')}</IonButton>
    </div>
  );
}
