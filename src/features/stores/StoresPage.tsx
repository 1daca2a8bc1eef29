// /stores (SPEC §7 Publisher): the marketplaces a seller can connect a store on, each with its
// rules for pictures and video and the keys it asks for; the stores connected (what is shown of
// their keys, until when they work, whether the platform still takes them) and disconnecting one;
// and the publications made from My materials, followed live, with a retry of the failed pictures.
import '../../lib/account-texts';
import { useCallback, useEffect, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Connection, PlatformInfo, Publication } from '../../../contract/publisher';
import { Dialog } from '../../components/Dialog';
import { FormMessage } from '../../components/form/Field';
import { showToast } from '../../components/toast';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { onPublicationUpdated } from '../../lib/app-events';
import { currentLocale } from '../../lib/i18n';
import { disconnectStore, getPlatforms, listConnections, listPublications } from '../../publisher/api';
import { PublicationView } from '../../publisher/PublicationView';
import { isOpen } from '../../publisher/rules';
import { useRetry } from '../../publisher/useRetry';
import { ConnectForm } from './ConnectForm';
import '../../components/form/form.css';
import '../../content/lists.css';
import './stores.css';

/** How often publications still under way are read again (the event stream says when one ends). */
const FOLLOW_MS = 3_000;
const MB = 1024 * 1024;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function Rules({ platform }: { platform: PlatformInfo }) {
  const { t } = useTranslation();
  const { rules } = platform;
  const video = rules.max_video_bytes === null ? t('publisher.noVideo') : t('publisher.video', { mb: rules.max_video_bytes / MB });
  return (
    <p className="store-platform__rules">
      {t('publisher.rules', { count: rules.max_images, min: `${rules.min_width}×${rules.min_height}`, formats: rules.formats.map((f) => f.toUpperCase()).join(', '), video })}
    </p>
  );
}

function ConnectionRow({ connection, onDisconnect }: { connection: Connection; onDisconnect: (connection: Connection) => void }) {
  const { t } = useTranslation();
  const expires = connection.expires_at ? new Date(connection.expires_at).toLocaleDateString(currentLocale()) : null;
  return (
    <li className="store-connection" data-testid="store-connection" data-platform={connection.platform}>
      <div>
        <strong>{connection.account_name}</strong>
        <span className="store-connection__platform"> · {t(`publisher.platforms.${connection.platform}`)}</span>
        <p className="store-connection__facts">
          {connection.platform === 'demo' ? t('publisher.demoBadge') : t('publisher.keyHint', { hint: connection.key_hint })}
          {expires ? ` · ${t('publisher.expires', { date: expires })}` : ''}
        </p>
        {connection.status === 'invalid' ? (
          <p className="store-connection__invalid" role="alert">
            {t('publisher.invalid')}
          </p>
        ) : (
          <p className="store-connection__active">{t('publisher.active')}</p>
        )}
      </div>
      <IonButton size="small" fill="outline" color="danger" onClick={() => onDisconnect(connection)} data-testid="store-disconnect">
        {t('publisher.disconnect')}
      </IonButton>
    </li>
  );
}

export default function StoresPage() {
  const { t } = useTranslation();
  const [platforms, setPlatforms] = useState<PlatformInfo[] | null>(null);
  const [connections, setConnections] = useState<Connection[]>([]);
  const [publications, setPublications] = useState<Publication[]>([]);
  const [pages, setPages] = useState({ loaded: 0, total: 0 });
  const [failure, setFailure] = useState<string | null>(null);
  const [leaving, setLeaving] = useState<{ connection: Connection; busy: boolean } | null>(null);

  const loadStores = useCallback(
    () =>
      Promise.all([getPlatforms(), listConnections()]).then(
        ([all, mine]) => {
          setPlatforms(all);
          setConnections(mine);
          setFailure(null);
        },
        (error: unknown) => setFailure(message(error)),
      ),
    [],
  );

  /** The first `count` pages of publications, read again. */
  const loadPublications = useCallback(
    (count = 1) =>
      Promise.all(Array.from({ length: count }, (_, index) => listPublications(index + 1))).then(
        (answers) => {
          setPublications(answers.flatMap((answer) => answer.data));
          setPages({ loaded: count, total: answers[0]?.meta.total_pages ?? 0 });
        },
        (error: unknown) => setFailure(message(error)),
      ),
    [],
  );

  useEffect(() => {
    void loadStores();
    void loadPublications();
  }, [loadStores, loadPublications]);

  // Publications under way are followed until they end; the stream's event refreshes at once.
  const following = publications.some(isOpen);
  useEffect(() => {
    const again = () => void loadPublications(Math.max(1, pages.loaded));
    const stop = onPublicationUpdated(again);
    const timer = following ? setInterval(again, FOLLOW_MS) : undefined;
    return () => {
      stop();
      clearInterval(timer);
    };
  }, [following, loadPublications, pages.loaded]);

  const disconnect = async () => {
    if (!leaving) return;
    setLeaving({ ...leaving, busy: true });
    try {
      const answer = await disconnectStore(leaving.connection.id);
      showToast(answer.message, 'success');
      await loadStores();
    } catch (error) {
      showToast(message(error), 'error');
    } finally {
      setLeaving(null);
    }
  };

  const { retry, busy: retrying, retried } = useRetry(() => {
    showToast(t('publisher.publications.retried'), 'info');
    void loadPublications(Math.max(1, pages.loaded));
  });

  const title = t('routes.stores');
  return (
    <HomeLayout title={title} testId="stores-page">
      <div className="history__head">
        <h1>{title}</h1>
      </div>
      <p className="stores-intro">{t('publisher.intro')}</p>
      {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}

      {connections.length > 0 ? (
        <section className="stores-section" aria-labelledby="stores-connected">
          <h2 id="stores-connected">{t('publisher.yourStores')}</h2>
          <ul className="store-connections">
            {connections.map((connection) => (
              <ConnectionRow key={connection.id} connection={connection} onDisconnect={(chosen) => setLeaving({ connection: chosen, busy: false })} />
            ))}
          </ul>
        </section>
      ) : null}

      <section className="stores-section" aria-labelledby="stores-platforms">
        <h2 id="stores-platforms">{t('publisher.addStore')}</h2>
        <div className="store-platforms">
          {(platforms ?? []).map((platform) => (
            <section key={platform.id} className={`store-platform${platform.demo ? ' store-platform--demo' : ''}`} aria-labelledby={`platform-${platform.id}`} data-testid={`platform-${platform.id}`}>
              <h3 id={`platform-${platform.id}`}>
                {t(`publisher.platforms.${platform.id}`)}
                {platform.demo ? <span className="store-platform__badge">{t('publisher.demoBadge')}</span> : null}
              </h3>
              {platform.demo ? <p className="store-platform__note">{t('publisher.demoNote')}</p> : null}
              <Rules platform={platform} />
              {platform.needs_public_url && !platform.public_url_reachable ? (
                <p className="store-platform__warning" role="note" data-testid="public-url-warning">
                  {t('publisher.publicUrl', { platform: t(`publisher.platforms.${platform.id}`), url: window.location.origin })}
                </p>
              ) : null}
              {platform.demo && platform.connected ? null : <ConnectForm platform={platform} onConnected={() => void loadStores()} />}
            </section>
          ))}
        </div>
      </section>

      <section className="stores-section" aria-labelledby="stores-publications">
        <h2 id="stores-publications">{t('publisher.publications.title')}</h2>
        {publications.length === 0 ? (
          <p className="stores-empty">
            {t('publisher.publications.empty')} <Link to={paths.material}>{t('nav.materialHistory')}</Link>
          </p>
        ) : (
          <div className="publications">
            {publications.map((publication) => (
              <PublicationView key={publication.id} publication={publication} onRetry={retried.has(publication.id) ? undefined : (chosen) => void retry(chosen)} retrying={retrying === publication.id} />
            ))}
          </div>
        )}
        {pages.loaded < pages.total ? (
          <IonButton fill="clear" onClick={() => void loadPublications(pages.loaded + 1)}>
            {t('publisher.publications.more')}
          </IonButton>
        ) : null}
      </section>

      <Dialog open={leaving !== null} onClose={() => setLeaving(null)} labelledBy="disconnect-title" dismissible={!leaving?.busy} testId="disconnect-dialog">
        <h2 id="disconnect-title">{t('publisher.confirmDisconnect.title')}</h2>
        <p>{t('publisher.confirmDisconnect.body', { account: leaving?.connection.account_name ?? '' })}</p>
        <div className="dialog__actions">
          <IonButton fill="clear" onClick={() => setLeaving(null)} disabled={leaving?.busy}>
            {t('publisher.confirmDisconnect.cancel')}
          </IonButton>
          <IonButton color="danger" onClick={() => void disconnect()} disabled={leaving?.busy} data-testid="disconnect-confirm">
            {t('publisher.confirmDisconnect.confirm')}
          </IonButton>
        </div>
      </Dialog>
    </HomeLayout>
  );
}
