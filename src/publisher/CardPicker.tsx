// The seller's product cards on a connected store, searched on the store itself (by title or
// article as the platform allows), a page at a time; picking one moves the publish dialog on.
import { useEffect, useId, useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import type { Connection, StoreProduct } from '../../contract/publisher';
import { FormMessage } from '../components/form/Field';
import { Spinner } from '../components/Spinner';
import { listProducts } from './api';

/** A pause after the last keystroke before the store is asked. */
const SEARCH_DELAY_MS = 350;

export function CardPicker({ connection, onPick }: { connection: Connection; onPick: (card: StoreProduct) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [q, setQ] = useState('');
  const [cards, setCards] = useState<StoreProduct[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  /** The search shown: a page asked for under an earlier one is dropped. */
  const search = useRef(0);

  useEffect(() => {
    const controller = new AbortController();
    const asked = ++search.current;
    const timer = setTimeout(() => {
      setLoading(true);
      listProducts(connection.platform, connection.id, q.trim(), null, controller.signal)
        .then((page) => {
          if (asked !== search.current) return;
          setCards(page.items);
          setNext(page.next_cursor);
          setFailure(null);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setFailure(error instanceof Error ? error.message : String(error));
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false);
        });
    }, q ? SEARCH_DELAY_MS : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [connection, q]);

  const more = async () => {
    if (!next) return;
    const asked = search.current;
    setLoading(true);
    try {
      const page = await listProducts(connection.platform, connection.id, q.trim(), next);
      if (asked !== search.current) return;
      setCards((shown) => [...shown, ...page.items]);
      setNext(page.next_cursor);
    } catch (error) {
      if (asked === search.current) setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      if (asked === search.current) setLoading(false);
    }
  };

  return (
    <div className="card-picker">
      <div className="field">
        <label htmlFor={`${id}-q`}>{t('publisher.publish.chooseCard')}</label>
        <div className="field__control">
          <input id={`${id}-q`} type="search" value={q} onChange={(event) => setQ(event.target.value)} placeholder={t('publisher.publish.search')} data-testid="card-search" />
        </div>
      </div>
      {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
      <ul className="card-picker__list" aria-busy={loading}>
        {cards.map((card) => (
          <li key={card.id}>
            <button type="button" className="card-picker__card" onClick={() => onPick(card)} data-testid="store-card">
              {card.thumbnail ? <img src={card.thumbnail} alt="" loading="lazy" /> : <span className="card-picker__blank" />}
              <span className="card-picker__text">
                <strong>{card.title || card.article}</strong>
                <span>{t('publisher.publish.cardFacts', { article: card.article, count: card.pictures })}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {loading ? (
        <p role="status">
          <Spinner /> {t('publisher.publish.loadingCards')}
        </p>
      ) : cards.length === 0 && !failure ? (
        <p>{t('publisher.publish.noCards')}</p>
      ) : null}
      {next && !loading ? (
        <IonButton fill="clear" onClick={() => void more()}>
          {t('publisher.publish.moreCards')}
        </IonButton>
      ) : null}
    </div>
  );
}
