// One section of material history (SPEC §2): a page of eight results in a grid, select-all and the
// selected count, retry, edit and delete, and paging. A tap or Space selects a result; a
// double-click, a long press or its preview button opens it.
import { useRef, type TouchEvent } from 'react';
import { IonButton } from '@ionic/react';
import { checkmarkCircle, eyeOutline, playCircleOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import type { Asset, MaterialSection as Section } from '../../../contract/assets';
import type { PageMeta } from '../../../contract/envelope';
import { Icon } from '../../components/Icon';
import { MediaThumb } from '../../components/MediaThumb';
import { formatDateTime, type MaterialAction } from '../../content/rules';

/** How long a touch is held before it opens the preview. */
export const LONG_PRESS_MS = 550;

export interface SectionState {
  assets: Asset[];
  meta: PageMeta | null;
  loading: boolean;
  failure: string | null;
}

interface Props {
  section: Section;
  state: SectionState;
  selected: ReadonlyMap<string, Asset>;
  online: boolean;
  onToggle: (asset: Asset) => void;
  onToggleAll: () => void;
  onPreview: (asset: Asset) => void;
  onAction: (action: Exclude<MaterialAction, 'download'>) => void;
  onPage: (page: number) => void;
  onReload: () => void;
}

export function MaterialSection({ section, state, selected, online, onToggle, onToggleAll, onPreview, onAction, onPage, onReload }: Props) {
  const { t } = useTranslation();
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; opened: boolean } | null>(null);
  const name = t(`history.material.sections.${section}`);
  const titleId = `material-${section}`;
  const { assets, meta } = state;
  const allSelected = assets.length > 0 && assets.every((asset) => selected.has(asset.id));

  const touchStart = (asset: Asset) => {
    const entry = { opened: false, timer: setTimeout(() => {
      entry.opened = true;
      onPreview(asset);
    }, LONG_PRESS_MS) };
    press.current = entry;
  };
  const touchEnd = (event: TouchEvent) => {
    const entry = press.current;
    press.current = null;
    if (!entry) return;
    clearTimeout(entry.timer);
    // A long press opened the preview: the touch must not also select.
    if (entry.opened) event.preventDefault();
  };
  const cancelPress = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };

  return (
    <section className="material-section" aria-labelledby={titleId} data-testid={`section-${section}`}>
      <header className="material-section__head">
        <h2 id={titleId}>{name}</h2>
        {/* Nothing to select in an empty section: its tools appear with its first result. */}
        <div className="material-section__tools" hidden={meta !== null && meta.total === 0}>
          <label className="material-section__all">
            <input type="checkbox" checked={allSelected} disabled={assets.length === 0} onChange={onToggleAll} data-testid="select-all" />
            {t('history.material.selectAll')}
          </label>
          <span className="material-section__count" data-testid="selected-count" aria-live="polite">
            {t('history.material.selected', { count: selected.size })}
          </span>
          {section !== 'CREATIVE_VIDEO' ? (
            <IonButton size="small" fill="outline" onClick={() => onAction('edit')} data-testid="action-edit">
              {t('history.material.edit')}
            </IonButton>
          ) : null}
          <IonButton size="small" fill="outline" onClick={() => onAction('retry')} disabled={!online} data-testid="action-retry">
            {t('history.material.retry')}
          </IonButton>
          <IonButton size="small" fill="outline" color="danger" onClick={() => onAction('delete')} disabled={!online} data-testid="action-delete">
            {t('history.material.delete')}
          </IonButton>
        </div>
      </header>
      {state.failure && assets.length === 0 ? (
        <p className="material-section__message" role="alert">
          {t('history.material.loadFailed')} {state.failure}{' '}
          <IonButton size="small" fill="clear" onClick={onReload}>
            {t('history.retryLoad')}
          </IonButton>
        </p>
      ) : null}
      {state.loading && !meta ? <p className="material-section__message">{t('history.material.loading')}</p> : null}
      {meta && assets.length === 0 ? <p className="material-section__message">{t('history.material.empty')}</p> : null}
      {assets.length > 0 ? (
        <ul className="material-grid" data-testid="material-grid">
          {assets.map((asset) => {
            const on = selected.has(asset.id);
            const label = t('history.material.itemName', { name, date: formatDateTime(asset.created_at) });
            return (
              <li key={asset.id} className={`material-tile${on ? ' material-tile--on' : ''}`} data-testid="material-tile" data-asset-id={asset.id}>
                <button
                  type="button"
                  className="material-tile__main"
                  aria-pressed={on}
                  aria-label={t('history.material.select', { name: label })}
                  onClick={() => onToggle(asset)}
                  onDoubleClick={() => onPreview(asset)}
                  onTouchStart={() => touchStart(asset)}
                  onTouchEnd={touchEnd}
                  onTouchMove={cancelPress}
                  onContextMenu={(event) => event.preventDefault()}
                >
                  <MediaThumb url={asset.file_url} poster={asset.poster_url} fileType={asset.file_type} alt="" className="material-tile__media" />
                  {asset.file_type.startsWith('video/') ? <Icon icon={playCircleOutline} className="material-tile__play" /> : null}
                  {on ? <Icon icon={checkmarkCircle} className="material-tile__check" /> : null}
                  {asset.edit_meta ? (
                    <span className="material-tile__edited" data-testid="edited-badge">
                      {t('history.material.edited')}
                    </span>
                  ) : null}
                </button>
                <button type="button" className="material-tile__preview icon-button" onClick={() => onPreview(asset)} aria-label={`${t('history.material.preview.title')}: ${label}`} data-testid="tile-preview">
                  <Icon icon={eyeOutline} />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {meta && meta.total_pages > 1 ? (
        <nav className="material-pager" aria-label={name}>
          <IonButton size="small" fill="clear" disabled={meta.page <= 1 || state.loading} onClick={() => onPage(meta.page - 1)} aria-label={t('history.material.previousPage')}>
            ‹
          </IonButton>
          <span data-testid="section-page">{t('history.material.page', { page: meta.page, total: meta.total_pages })}</span>
          <IonButton size="small" fill="clear" disabled={meta.page >= meta.total_pages || state.loading} onClick={() => onPage(meta.page + 1)} aria-label={t('history.material.nextPage')} data-testid="next-page">
            ›
          </IonButton>
        </nav>
      ) : null}
    </section>
  );
}
