// Publishing the chosen results onto a product card (SPEC §7 Publisher): the store, then the card
// (searched on the store itself), then where the pictures go — the main picture or the gallery,
// added to the card's or in their place — with the card as it will be, the results the platform's
// rules would refuse named before anything is sent; then each result's progress to the card.
import { useEffect, useId, useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Asset } from '../../../contract/assets';
import type { Connection, PlatformInfo, Publication, PublishRequest, StoreProduct } from '../../../contract/publisher';
import { Dialog } from '../../components/Dialog';
import { FormMessage } from '../../components/form/Field';
import { MediaThumb } from '../../components/MediaThumb';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { onPublicationUpdated } from '../../lib/app-events';
import { getPlatforms, getPublication, listConnections, publish } from '../../publisher/api';
import { CardPicker } from '../../publisher/CardPicker';
import { PublicationView } from '../../publisher/PublicationView';
import { cardAfter, fitProblem, isOpen } from '../../publisher/rules';
import { useRetry } from '../../publisher/useRetry';
import '../../publisher/publish.css';

/** How often a publication under way is read again (its end also comes on the event stream). */
const FOLLOW_MS = 1_500;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Props {
  assets: readonly Asset[];
  onClose: () => void;
}

export function PublishDialog({ assets, onClose }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [stores, setStores] = useState<{ connections: Connection[]; platforms: PlatformInfo[] } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [connection, setConnection] = useState<Connection | null>(null);
  const [card, setCard] = useState<StoreProduct | null>(null);
  const [placement, setPlacement] = useState<PublishRequest['placement']>('gallery');
  const [mode, setMode] = useState<PublishRequest['mode']>('append');
  const [sending, setSending] = useState(false);
  const [publication, setPublication] = useState<Publication | null>(null);
  // One key per request: the same request sent again (an answer lost) publishes once.
  const keys = useRef(new Map<string, string>());
  const heading = useRef<HTMLHeadingElement>(null);
  const keyFor = (request: PublishRequest) => {
    const text = JSON.stringify(request);
    if (!keys.current.has(text)) keys.current.set(text, crypto.randomUUID());
    return keys.current.get(text)!;
  };

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([listConnections(controller.signal), getPlatforms(controller.signal)])
      .then(([connections, platforms]) => {
        const usable = connections.filter((item) => item.status === 'active' && platforms.some((platform) => platform.id === item.platform));
        setStores({ connections: usable, platforms });
        if (usable.length === 1) setConnection(usable[0]!);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setFailure(message(error));
      });
    return () => controller.abort();
  }, []);

  // A publication under way is followed until it ends.
  const open = publication !== null && isOpen(publication);
  const following = publication?.id;
  useEffect(() => {
    if (!open || !following) return;
    const read = () =>
      void getPublication(following)
        .then(setPublication)
        .catch(() => {});
    const timer = setInterval(read, FOLLOW_MS);
    const stop = onPublicationUpdated((event) => {
      if (event.publication_id === following) read();
    });
    return () => {
      clearInterval(timer);
      stop();
    };
  }, [open, following]);

  const platform = stores?.platforms.find((item) => item.id === connection?.platform) ?? null;
  const byId = new Map(assets.map((asset) => [asset.id, asset]));

  const send = async (request: PublishRequest, idempotencyKey: string) => {
    setSending(true);
    setFailure(null);
    try {
      setPublication(await publish(request, idempotencyKey));
    } catch (error) {
      setFailure(message(error));
    } finally {
      setSending(false);
    }
  };

  const start = () => {
    if (!connection || !card) return;
    const request: PublishRequest = {
      connection_id: connection.id,
      product_id: card.id,
      product_article: card.article,
      product_title: card.title,
      asset_ids: assets.map((asset) => asset.id),
      placement,
      mode,
    };
    void send(request, keyFor(request));
  };

  const { retry, busy: retrying } = useRetry(setPublication);

  const titleId = `${id}-title`;
  let body;
  let step: string;
  if (publication) {
    step = 'progress';
    body = (
      <>
        <p role="status">{t('publisher.publish.started')}</p>
        <PublicationView publication={publication} assets={byId} onRetry={(ended) => void retry(ended)} retrying={retrying !== null} />
        <div className="dialog__actions">
          <Link to={paths.stores} onClick={onClose}>
            {t('publisher.publish.toPublications')}
          </Link>
          <IonButton onClick={onClose} data-testid="publish-close">
            {t('publisher.publish.close')}
          </IonButton>
        </div>
      </>
    );
  } else if (!stores) {
    step = 'loading';
    body = failure ? null : (
      <p role="status">
        <Spinner /> {t('publisher.publish.loadingCards')}
      </p>
    );
  } else if (stores.connections.length === 0) {
    step = 'no-stores';
    body = (
      <p>
        {t('publisher.publish.noStores')}{' '}
        <Link to={paths.stores} onClick={onClose} data-testid="publish-to-stores">
          {t('publisher.publish.toStores')}
        </Link>
      </p>
    );
  } else if (!connection || !platform) {
    step = 'store';
    body = (
      <fieldset className="publish-choice">
        <legend>{t('publisher.publish.store')}</legend>
        {stores.connections.map((item) => (
          <label key={item.id} className="publish-choice__option">
            <input type="radio" name={`${id}-store`} onChange={() => setConnection(item)} data-testid="publish-store" />
            {item.account_name} · {t(`publisher.platforms.${item.platform}`)}
          </label>
        ))}
      </fieldset>
    );
  } else if (!card) {
    step = 'card';
    body = (
      <>
        <p className="publish-store">
          {t('publisher.publish.store')}: <strong>{connection.account_name}</strong> · {t(`publisher.platforms.${connection.platform}`)}
          {stores.connections.length > 1 ? (
            <IonButton size="small" fill="clear" onClick={() => setConnection(null)}>
              {t('publisher.publish.back')}
            </IonButton>
          ) : null}
        </p>
        <CardPicker connection={connection} onPick={setCard} />
      </>
    );
  } else {
    step = 'options';
    const tiles = cardAfter(card.pictures, assets, placement, mode);
    const problems = assets.map((asset) => ({ asset, problem: fitProblem(asset, platform.rules) })).filter((entry) => entry.problem !== null);
    body = (
      <>
        <div className="publish-card">
          {card.thumbnail ? <img src={card.thumbnail} alt="" className="publish-card__thumb" /> : <span className="publish-card__thumb" />}
          <div>
            <strong>{card.title}</strong>
            <p>{t('publisher.publish.cardFacts', { article: card.article, count: card.pictures })}</p>
          </div>
          <IonButton size="small" fill="clear" onClick={() => setCard(null)} data-testid="publish-change-card">
            {t('publisher.publish.change')}
          </IonButton>
        </div>
        <fieldset className="publish-choice">
          <legend>{t('publisher.publish.placement')}</legend>
          {(['main', 'gallery'] as const).map((value) => (
            <label key={value} className="publish-choice__option">
              <input type="radio" name={`${id}-placement`} checked={placement === value} onChange={() => setPlacement(value)} data-testid={`placement-${value}`} />
              {t(`publisher.publish.${value}`)}
            </label>
          ))}
        </fieldset>
        <fieldset className="publish-choice">
          <legend>{t('publisher.publish.mode')}</legend>
          {(['append', 'replace'] as const).map((value) => (
            <label key={value} className="publish-choice__option">
              <input type="radio" name={`${id}-mode`} checked={mode === value} onChange={() => setMode(value)} data-testid={`mode-${value}`} />
              {t(`publisher.publish.${value}`)}
            </label>
          ))}
        </fieldset>
        <h3 className="publish-preview__title">{t('publisher.publish.preview')}</h3>
        <ol className="publish-preview" data-testid="publish-preview">
          {tiles.map((tile) =>
            tile.kind === 'current' ? (
              <li key="current" className="publish-preview__current">
                {t('publisher.publish.current', { count: tile.count })}
              </li>
            ) : (
              <li key={tile.asset.id} className={tile.main ? 'publish-preview__main' : undefined}>
                <MediaThumb url={tile.asset.file_url} fileType={tile.asset.file_type} poster={tile.asset.poster_url} alt={t('publisher.publications.itemAlt', { position: assets.indexOf(tile.asset) + 1 })} />
                {tile.main ? <span>{t('publisher.publish.main')}</span> : null}
              </li>
            ),
          )}
        </ol>
        {platform.rules.max_video_bytes !== null && assets.some((asset) => asset.file_type.startsWith('video/')) ? <p className="publish-note">{t('publisher.publish.videoPlace')}</p> : null}
        {mode === 'replace' && card.pictures > 0 ? <p className="publish-note">{t('publisher.publish.removed', { count: card.pictures })}</p> : null}
        {problems.length > 0 ? (
          <ul className="publish-problems" data-testid="publish-problems">
            {problems.map(({ asset, problem }) => (
              <li key={asset.id}>
                <MediaThumb url={asset.file_url} fileType={asset.file_type} poster={asset.poster_url} alt="" className="publish-problems__thumb" />
                {t('publisher.publish.ruleProblem', { reason: t(`publisher.publish.${problem!.key}` as 'publisher.publish.tooSmall', problem!.vars as { min: string; size: string }) })}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="dialog__actions">
          <IonButton fill="clear" onClick={onClose} disabled={sending}>
            {t('publisher.publish.close')}
          </IonButton>
          <IonButton onClick={start} disabled={sending || problems.length === assets.length} data-testid="publish-send">
            {sending ? (
              <>
                <Spinner /> {t('publisher.publish.sending')}
              </>
            ) : (
              t('publisher.publish.send')
            )}
          </IonButton>
        </div>
      </>
    );
  }

  // Each step replaces the dialog's content: focus goes to its title, not to the page behind.
  useEffect(() => {
    if (step !== 'loading') heading.current?.focus();
  }, [step]);

  return (
    <Dialog open onClose={onClose} labelledBy={titleId} dismissible={!sending} closeLabel={t('publisher.publish.close')} testId="publish-dialog">
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {t('publisher.publish.title')}
      </h2>
      {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
      {body}
    </Dialog>
  );
}
