// /consumption/history (SPEC §2, §3 Consumption entry): the balance, the current plan, and every
// movement of tokens — top-ups, generation charges, refunds, bonuses — newest first, twenty at a
// time, each with its type, its time (YYYY-MM-DD HH:mm:ss) and its amount (0 when missing). The
// recharge button shows only with a subscription (SPEC §2, §6). It refreshes when the balance
// moves or a task ends; offline it shows the last loaded list, marked as such.
import '../../lib/account-texts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { pageMetaSchema } from '../../../contract/envelope';
import { consumptionEntrySchema } from '../../../contract/billing';
import { showToast } from '../../components/toast';
import { paths } from '../../config/paths';
import { OfflineCopyBanner } from '../../content/OfflineCopyBanner';
import { loadList, saveList } from '../../content/lists';
import { appendPage, formatDateTime, hasMorePages } from '../../content/rules';
import { HomeLayout } from '../../layouts/HomeLayout';
import { onTaskUpdated, onWalletUpdated } from '../../lib/app-events';
import { isLiveSubscription } from '../../../contract/billing';
import { balanceAtom, onlineAtom, subscriptionAtom } from '../../lib/store';
import { listConsumption } from '../../billing/api';
import '../../content/lists.css';
import './consumption.css';

const entryListSchema = z.object({ entries: z.array(consumptionEntrySchema), meta: pageMetaSchema });
type EntryList = z.output<typeof entryListSchema>;

const LIST = 'consumption';

export default function ConsumptionHistoryPage() {
  const { t } = useTranslation();
  const online = useAtomValue(onlineAtom);
  const balance = useAtomValue(balanceAtom);
  const subscription = useAtomValue(subscriptionAtom);
  const live = isLiveSubscription(subscription) ? subscription : null;
  const [list, setList] = useState<EntryList | null>(null);
  const [offlineSince, setOfflineSince] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const request = useRef(0);

  const refresh = useCallback(() => {
    const id = ++request.current;
    return loadList(LIST, entryListSchema, async () => {
      const page = await listConsumption(1);
      return { entries: page.data, meta: page.meta };
    })
      .then((loaded) => {
        if (id !== request.current) return;
        setList(loaded.value);
        setOfflineSince(loaded.offline ? loaded.savedAt : null);
        setFailure(null);
      })
      .catch((error: unknown) => {
        if (id === request.current) setFailure(error instanceof Error ? error.message : String(error));
      });
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh, online]);
  useEffect(() => onWalletUpdated(() => void refresh()), [refresh]);
  useEffect(() => onTaskUpdated(() => void refresh()), [refresh]);

  const loadMore = async () => {
    if (!list || !hasMorePages(list.meta)) return;
    setLoadingMore(true);
    const id = request.current;
    try {
      const page = await listConsumption(list.meta.page + 1);
      if (id !== request.current) return;
      const next = { entries: appendPage(list.entries, page.data), meta: page.meta };
      setList(next);
      void saveList(LIST, next);
    } catch (error) {
      showToast(error instanceof Error ? error.message : t('common.errors.internal_server_error'), 'error');
    } finally {
      setLoadingMore(false);
    }
  };

  const title = t('routes.consumption_history');
  return (
    <HomeLayout title={title} testId="consumption-page">
      <section className="consumption">
        <h1>{title}</h1>
        <div className="consumption__card">
          <div>
            <span>{t('consumption.balance')}</span>
            <strong data-testid="consumption-balance">{balance === null ? t('wallet.unknown') : t('wallet.tokens', { count: balance })}</strong>
          </div>
          <div>
            <span>{t('consumption.plan')}</span>
            <strong data-testid="consumption-plan">{live ? live.plan.name : t('consumption.noPlan')}</strong>
          </div>
          {live ? (
            <IonButton routerLink={paths.recharge} data-testid="consumption-recharge">
              {t('consumption.recharge')}
            </IonButton>
          ) : null}
        </div>
        <OfflineCopyBanner savedAt={offlineSince} />
        {failure && !list ? (
          <div className="history__banner history__banner--offline" role="alert">
            <span>
              {t('consumption.loadFailed')} {failure}
            </span>
            <IonButton size="small" fill="outline" onClick={() => void refresh()}>
              {t('history.retryLoad')}
            </IonButton>
          </div>
        ) : null}
        {!list && !failure ? <p role="status">{t('consumption.loading')}</p> : null}
        {list && list.entries.length === 0 ? <p className="consumption__empty">{t('consumption.empty')}</p> : null}
        {list && list.entries.length > 0 ? (
          <>
            <ul className="consumption__list" data-testid="consumption-list">
              {list.entries.map((entry) => {
                const amount = entry.amount ?? 0;
                return (
                  <li key={entry.id} className="consumption__entry" data-testid="consumption-entry" data-type={entry.type}>
                    <span className="consumption__type">{t(`consumption.types.${entry.type}`)}</span>
                    <time className="consumption__time" dateTime={entry.created_at}>
                      {formatDateTime(entry.created_at)}
                    </time>
                    {entry.expires_at ? (
                      <span className="consumption__expires" data-testid="consumption-expires">
                        {t('consumption.expires', { date: formatDateTime(entry.expires_at) })}
                      </span>
                    ) : null}
                    <span className={`consumption__amount${amount > 0 ? ' consumption__amount--in' : amount < 0 ? ' consumption__amount--out' : ''}`}>
                      {amount > 0 ? `+${amount}` : amount < 0 ? `−${Math.abs(amount)}` : '0'}
                    </span>
                  </li>
                );
              })}
            </ul>
            <div className="history__more">
              {hasMorePages(list.meta) ? (
                <IonButton fill="outline" onClick={() => void loadMore()} disabled={loadingMore || offlineSince !== null} data-testid="load-more">
                  {t('consumption.loadMore')}
                </IonButton>
              ) : (
                <p data-testid="no-more">{t('consumption.noMore')}</p>
              )}
            </div>
          </>
        ) : null}
      </section>
    </HomeLayout>
  );
}
