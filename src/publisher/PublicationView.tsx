// One publication: the card it went to, how it stands, and each result's fate on the card
// (pending → sent → applied | failed, with the platform's words), with a retry of the failed ones.
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../contract/assets';
import type { Publication } from '../../contract/publisher';
import { MediaThumb } from '../components/MediaThumb';
import { Spinner } from '../components/Spinner';
import { formatDateTime } from '../content/rules';
import { isOpen, retryRequest } from './rules';
import './publication.css';

interface Props {
  publication: Publication;
  /** The results it sends, when the screen has them (the publish dialog): shown as thumbnails. */
  assets?: ReadonlyMap<string, Asset>;
  onRetry?: (publication: Publication) => void;
  retrying?: boolean;
}

export function PublicationView({ publication, assets, onRetry, retrying = false }: Props) {
  const { t } = useTranslation();
  const applied = publication.items.filter((item) => item.status === 'applied').length;
  const card = publication.product.title || publication.product.article || publication.product.id;
  const canRetry = !isOpen(publication) && retryRequest(publication) !== null;
  return (
    <article className="publication" data-testid="publication" data-status={publication.status} aria-busy={isOpen(publication)}>
      <header className="publication__head">
        <div>
          <h3>
            {t(`publisher.platforms.${publication.platform}`)} · {t('publisher.publications.card', { card })}
          </h3>
          <p className="publication__meta">
            {formatDateTime(publication.created_at)} · {t('publisher.publications.placed', { applied, total: publication.items.length })}
          </p>
        </div>
        <span className={`publication__status publication__status--${publication.status}`} role="status">
          {isOpen(publication) ? <Spinner /> : null} {t(`publisher.publications.status.${publication.status}`)}
        </span>
      </header>
      <ol className="publication__items">
        {publication.items.map((item) => {
          const asset = item.asset_id ? assets?.get(item.asset_id) : undefined;
          const label = t('publisher.publications.itemAlt', { position: item.position + 1 });
          return (
            <li key={item.position} className={`publication-item publication-item--${item.status}`} data-testid="publication-item" data-status={item.status}>
              {asset ? <MediaThumb className="publication-item__thumb" url={asset.file_url} fileType={asset.file_type} poster={asset.poster_url} alt={label} /> : <span className="publication-item__number">{item.position + 1}</span>}
              <div className="publication-item__text">
                <span className="publication-item__status">
                  {item.status === 'pending' || item.status === 'sent' ? <Spinner /> : null} {t(`publisher.publications.item.${item.status}`)}
                  {item.kind === 'video' ? ` · ${t('publisher.publications.videoItem')}` : ''}
                </span>
                {item.message ? <span className="publication-item__message">{item.message}</span> : null}
              </div>
              {item.status === 'applied' && item.remote_url ? (
                <a className="publication-item__link" href={item.remote_url} target="_blank" rel="noreferrer">
                  {t('publisher.publications.open')}
                </a>
              ) : null}
            </li>
          );
        })}
      </ol>
      {publication.message && publication.status === 'failed' ? <p className="publication__message">{publication.message}</p> : null}
      {canRetry && onRetry ? (
        <IonButton size="small" fill="outline" onClick={() => onRetry(publication)} disabled={retrying} data-testid="publication-retry">
          {t('publisher.publications.retry')}
        </IonButton>
      ) : null}
    </article>
  );
}
