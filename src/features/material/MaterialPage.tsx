// /material (SPEC §2, §4, §5, §8): every result the seller has, a section per category, each a
// paged grid of eight. Results are selected to be downloaded together as one zip (built and
// streamed by the server), published onto a product card of a connected store, deleted, edited or
// made again; any one opens in a preview. Offline,
// the last loaded pages are shown, marked as such, and refresh when the network returns.
import { useCallback, useEffect, useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { Spinner } from '../../components/Spinner';
import { cloudUploadOutline, downloadOutline } from 'ionicons/icons';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { MATERIAL_SECTIONS, type Asset, type MaterialSection as Section } from '../../../contract/assets';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { showToast } from '../../components/toast';
import { paths } from '../../config/paths';
import type { StorageUsage as Usage } from '../../../contract/materials';
import { PUBLISH_MAX_RESULTS } from '../../../contract/publisher';
import { assetPage, deleteAssets, getStorageUsage, listAssets, prepareDownload } from '../../content/api';
import { downloadOne, formatBytes, saveBlob } from '../../content/download';
import { OfflineCopyBanner } from '../../content/OfflineCopyBanner';
import { loadList } from '../../content/lists';
import { materialActionProblem, toggleAll, type MaterialAction } from '../../content/rules';
import { HomeLayout } from '../../layouts/HomeLayout';
import '../../lib/account-texts';
import { apiDownload } from '../../lib/api-client';
import { onTaskUpdated } from '../../lib/app-events';
import { currentLocale } from '../../lib/i18n';
import { onlineAtom } from '../../lib/store';
import { MaterialSection, type SectionState } from './MaterialSection';
import { PendingEdits } from './PendingEdits';
import { PreviewDialog } from './PreviewDialog';
import { PublishDialog } from './PublishDialog';
import { RetryDialog } from './RetryDialog';
import { StorageUsage } from './StorageUsage';
import '../../content/lists.css';
import './material.css';

type Sections<T> = Record<Section, T>;

const each = <T,>(make: (section: Section) => T) => Object.fromEntries(MATERIAL_SECTIONS.map((s) => [s, make(s)])) as Sections<T>;

const EMPTY: SectionState = { assets: [], meta: null, loading: true, failure: null };

/** A section's page; when a delete has emptied it, the last page there is instead. */
async function pageOf(section: Section, page: number) {
  const loaded = await loadList(`assets:${section}:${page}`, assetPage, () => listAssets(section, page));
  if (loaded.value.data.length > 0 || page === 1 || loaded.offline) return loaded;
  const last = Math.max(1, loaded.value.meta.total_pages);
  return loadList(`assets:${section}:${last}`, assetPage, () => listAssets(section, last));
}

/** The zip being made and fetched: how many files, and bytes received so far. */
type Packing = { total: number; received: number } | null;

export default function MaterialPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const online = useAtomValue(onlineAtom);
  const [sections, setSections] = useState<Sections<SectionState>>(() => each(() => EMPTY));
  const [selected, setSelected] = useState<Sections<ReadonlyMap<string, Asset>>>(() => each(() => new Map()));
  const [offline, setOffline] = useState<Partial<Sections<number>>>({});
  const [preview, setPreview] = useState<Asset | null>(null);
  const [retrying, setRetrying] = useState<Asset | null>(null);
  const [deleting, setDeleting] = useState<{ section: Section; assets: Asset[]; busy: boolean } | null>(null);
  const [packing, setPacking] = useState<Packing>(null);
  const [publishing, setPublishing] = useState<Asset[] | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const pages = useRef<Sections<number>>(each(() => 1));
  const requests = useRef<Sections<number>>(each(() => 0));

  const load = useCallback((section: Section, page = pages.current[section]) => {
    const id = ++requests.current[section];
    pages.current[section] = page;
    setSections((all) => ({ ...all, [section]: { ...all[section], loading: true } }));
    return pageOf(section, page)
      .then((loaded) => {
        if (id !== requests.current[section]) return;
        pages.current[section] = loaded.value.meta.page;
        setSections((all) => ({ ...all, [section]: { assets: loaded.value.data, meta: loaded.value.meta, loading: false, failure: null } }));
        setOffline((all) => {
          const next = { ...all };
          if (loaded.offline) next[section] = loaded.savedAt;
          else delete next[section];
          return next;
        });
      })
      .catch((error: unknown) => {
        if (id !== requests.current[section]) return;
        setSections((all) => ({ ...all, [section]: { ...all[section], loading: false, failure: error instanceof Error ? error.message : String(error) } }));
      });
  }, []);

  // Offline, the last figure stays on screen.
  const loadUsage = useCallback(() => getStorageUsage().then(setUsage, () => {}), []);

  const loadAll = useCallback(() => Promise.all([...MATERIAL_SECTIONS.map((section) => load(section)), loadUsage()]), [load, loadUsage]);

  useEffect(() => {
    void loadAll();
  }, [loadAll, online]);
  useEffect(() => onTaskUpdated(() => void loadAll()), [loadAll]);

  const toggle = (section: Section, asset: Asset) =>
    setSelected((all) => {
      const next = new Map(all[section]);
      if (next.has(asset.id)) next.delete(asset.id);
      else next.set(asset.id, asset);
      return { ...all, [section]: next };
    });

  const toggleSection = (section: Section) =>
    setSelected((all) => {
      const page = sections[section].assets;
      const ids = toggleAll(new Set(all[section].keys()), page);
      const known = new Map([...all[section], ...page.map((asset) => [asset.id, asset] as const)]);
      return { ...all, [section]: new Map([...ids].map((id) => [id, known.get(id)!])) };
    });

  const forget = (ids: readonly string[]) =>
    setSelected((all) => each((section) => new Map([...all[section]].filter(([id]) => !ids.includes(id)))));

  const refuse = (problem: string | null) => {
    if (problem) showToast(t(`history.material.${problem}` as 'history.material.del_size_invalid'), 'error');
    return problem !== null;
  };

  const act = (section: Section, action: Exclude<MaterialAction, 'download'>) => {
    const chosen = [...selected[section].values()];
    if (refuse(materialActionProblem(action, chosen))) return;
    if ((action === 'delete' || action === 'retry') && !online) {
      showToast(t('history.material.offlineAction'), 'error');
      return;
    }
    if (action === 'delete') setDeleting({ section, assets: chosen, busy: false });
    if (action === 'retry') setRetrying(chosen[0]!);
    if (action === 'edit') navigate(`${paths.image_edit}?${chosen.map((asset) => `asset_id=${encodeURIComponent(asset.id)}`).join('&')}`);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleting({ ...deleting, busy: true });
    const ids = deleting.assets.map((asset) => asset.id);
    try {
      await deleteAssets(ids);
      showToast(t('history.material.deleted', { count: ids.length }), 'success');
      forget(ids);
      setDeleting(null);
      await Promise.all([load(deleting.section), loadUsage()]);
    } catch (error) {
      setDeleting(null);
      showToast(t('history.material.del_failed', { message: error instanceof Error ? error.message : '' }), 'error');
    }
  };

  const chosen = MATERIAL_SECTIONS.flatMap((section) => [...selected[section].values()]);

  const downloadSelected = async () => {
    if (refuse(materialActionProblem('download', chosen))) return;
    if (chosen.length === 1) {
      await downloadSingle(chosen[0]!);
      return;
    }
    setPacking({ total: chosen.length, received: 0 });
    try {
      const prepared = await prepareDownload(chosen.map((asset) => asset.id));
      const onBytes = (received: number) => setPacking({ total: prepared.total, received });
      const { blob, name } = await apiDownload(prepared.download_url, { onBytes });
      saveBlob(blob, name ?? 'solestudio.zip');
      showToast(t('history.material.downloadFinished'), 'success');
    } catch (error) {
      showToast(t('history.material.download_failed', { message: error instanceof Error ? error.message : '' }), 'error');
    } finally {
      setPacking(null);
    }
  };

  const publishSelected = () => {
    if (chosen.length === 0) return void showToast(t('publisher.publish.nothing'), 'error');
    if (chosen.length > PUBLISH_MAX_RESULTS) return void showToast(t('publisher.publish.tooMany', { count: PUBLISH_MAX_RESULTS }), 'error');
    if (!online) return void showToast(t('history.material.offlineAction'), 'error');
    setPublishing(chosen);
  };

  const downloadSingle = async (asset: Asset) => {
    // Opened in a new tab when it cannot be fetched from here (SPEC §8).
    try {
      if ((await downloadOne(asset)) === 'saved') showToast(t('history.material.downloadFinished'), 'success');
    } catch (error) {
      showToast(t('history.material.download_failed', { message: error instanceof Error ? error.message : '' }), 'error');
    }
  };

  const offlineSince = Object.values(offline).length > 0 ? Math.min(...Object.values(offline)) : null;
  const title = t('routes.material');
  return (
    <HomeLayout title={title} testId="material-page">
      <div className="history__head">
        <h1>{title}</h1>
      </div>
      <OfflineCopyBanner savedAt={offlineSince} />
      <PendingEdits onSaved={loadAll} />
      <nav className="material-nav" aria-label={t('history.material.sectionNav')}>
        {MATERIAL_SECTIONS.map((section) => (
          <a key={section} href={`#material-${section}`} onClick={(event) => {
            event.preventDefault();
            document.getElementById(`material-${section}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
          }}>
            {t(`history.material.sections.${section}`)}
            {sections[section].meta ? <span className="material-nav__count">{sections[section].meta!.total}</span> : null}
          </a>
        ))}
      </nav>
      <p className="material-hint">{t('history.material.hint')}</p>
      <StorageUsage usage={usage} />
      {MATERIAL_SECTIONS.map((section) => (
        <MaterialSection
          key={section}
          section={section}
          state={sections[section]}
          selected={selected[section]}
          online={online}
          onToggle={(asset) => toggle(section, asset)}
          onToggleAll={() => toggleSection(section)}
          onPreview={setPreview}
          onAction={(action) => act(section, action)}
          onPage={(page) => void load(section, page)}
          onReload={() => void load(section)}
        />
      ))}
      <div className="material-bottom">
        {packing ? (
          <p className="material-bottom__progress" role="status" data-testid="packing">
            <Spinner /> {t('history.material.packaging', { count: packing.total })}
            {packing.received > 0 ? ` · ${t('history.material.received', { size: formatBytes(packing.received, currentLocale()) })}` : ''}
          </p>
        ) : null}
        <IonButton expand="block" onClick={() => void downloadSelected()} disabled={packing !== null || !online} data-testid="download-selected">
          <Icon icon={downloadOutline} /> {t('history.material.download', { count: chosen.length })}
        </IonButton>
        <IonButton expand="block" fill="outline" onClick={publishSelected} disabled={!online} data-testid="publish-selected">
          <Icon icon={cloudUploadOutline} /> {t('publisher.publish.button', { count: chosen.length })}
        </IonButton>
      </div>
      {preview ? <PreviewDialog asset={preview} onDownload={() => void downloadSingle(preview)} onClose={() => setPreview(null)} /> : null}
      {publishing ? <PublishDialog assets={publishing} onClose={() => setPublishing(null)} /> : null}
      {retrying ? (
        <RetryDialog
          asset={retrying}
          onFinished={() => void loadAll()}
          onClose={() => {
            setRetrying(null);
            void loadAll();
          }}
        />
      ) : null}
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} labelledBy="delete-title" dismissible={!deleting?.busy} testId="delete-dialog">
        <h2 id="delete-title">{t('history.material.confirmDelete.title')}</h2>
        <p>{t('history.material.confirmDelete.body', { count: deleting?.assets.length ?? 0 })}</p>
        <div className="dialog__actions">
          <IonButton fill="clear" onClick={() => setDeleting(null)} disabled={deleting?.busy}>
            {t('history.material.confirmDelete.cancel')}
          </IonButton>
          <IonButton color="danger" onClick={() => void confirmDelete()} disabled={deleting?.busy} data-testid="delete-confirm">
            {t('history.material.confirmDelete.confirm')}
          </IonButton>
        </div>
      </Dialog>
    </HomeLayout>
  );
}
