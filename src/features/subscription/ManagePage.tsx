// /subscription/manage (SPEC §2 Subscription management, §4 cancelling, §8 cancel alerts): the
// plan's name, its status label (active, canceled, past_due, unpaid), the paid period, and the
// upgrade and cancel buttons; once cancel_at is set both are hidden and the date it ends is shown.
// A successful cancel says so and reloads the page after 3 s. With no plan, a subscribe button.
import '../../lib/account-texts';
import { useCallback, useEffect, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { canUpgrade, isLiveSubscription, type Subscription } from '../../../contract/billing';
import { Dialog } from '../../components/Dialog';
import { FormMessage } from '../../components/form/Field';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { formatDateTime } from '../../content/rules';
import { HomeLayout } from '../../layouts/HomeLayout';
import { ApiError } from '../../lib/api-client';
import { subscriptionAtom } from '../../lib/store';
import { cancelSubscription, getMySubscription } from '../../billing/subscriptions';
import { PlanCard } from './parts';
import '../../billing/billing.css';
import './subscription.css';

/** SPEC §9: the wait before the page reloads after a cancel. */
export const RELOAD_AFTER_CANCEL_MS = 3_000;

type Loaded = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; subscription: Subscription | null };

export default function ManagePage() {
  const { t } = useTranslation();
  const setStored = useSetAtom(subscriptionAtom);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const load = useCallback(() => {
    getMySubscription()
      .then((subscription) => {
        setLoaded({ kind: 'loaded', subscription });
        setStored(subscription);
      })
      .catch((error: unknown) => setLoaded({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
  }, [setStored]);
  // Each arrival (Ionic may keep the page mounted) reads the subscription as it is now.
  const arrival = useLocation().key;
  useEffect(load, [load, arrival]);

  useEffect(() => {
    if (outcome?.tone !== 'success') return;
    const timer = setTimeout(() => window.location.reload(), RELOAD_AFTER_CANCEL_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  const cancel = async (subscription: Subscription) => {
    setConfirming(false);
    setCancelling(true);
    try {
      const updated = await cancelSubscription(subscription);
      setLoaded({ kind: 'loaded', subscription: updated });
      setStored(updated);
      setOutcome({ tone: 'success', text: t('subscription.manageView.cancelSuccess') });
    } catch (error) {
      const message = error instanceof ApiError ? error.message : t('common.errors.internal_server_error');
      setOutcome({ tone: 'error', text: t('subscription.manageView.cancelError', { message }) });
    } finally {
      setCancelling(false);
    }
  };

  const title = t('routes.subscription_manage');
  const subscription = loaded.kind === 'loaded' ? loaded.subscription : null;
  const live = isLiveSubscription(subscription) ? subscription : null;
  const cancellable = live && !live.cancel_at && (live.status === 'active' || live.status === 'past_due');
  return (
    <HomeLayout title={title} testId="subscription-manage-page">
      <section className="subscription subscription--narrow">
        <h1>{title}</h1>
        {loaded.kind === 'loading' ? (
          <p role="status" className="billing-loading">
            <Spinner /> {t('subscription.manageView.loading')}
          </p>
        ) : null}
        {loaded.kind === 'failed' ? (
          <div className="billing-problem" role="alert">
            <span>
              {t('subscription.manageView.loadFailed')} {loaded.message}
            </span>
            <IonButton size="small" fill="outline" onClick={load}>
              {t('subscription.retry')}
            </IonButton>
          </div>
        ) : null}
        {loaded.kind === 'loaded' && !subscription ? <p data-testid="subscription-none">{t('subscription.manageView.none')}</p> : null}
        {subscription ? (
          <div className="subscription__manage" data-testid="subscription-details">
            <dl className="subscription__facts">
              <div>
                <dt>{t('subscription.manageView.plan')}</dt>
                <dd data-testid="subscription-plan">{subscription.plan.name}</dd>
              </div>
              <div>
                <dt>{t('subscription.manageView.status')}</dt>
                <dd>
                  <span className={`status-label status-label--${subscription.status}`} data-testid="subscription-status" data-status={subscription.status}>
                    {t(`subscription.manageView.statuses.${subscription.status}`)}
                  </span>
                </dd>
              </div>
              {subscription.current_period_end && !subscription.cancel_at ? (
                <div>
                  <dt>{t('subscription.manageView.periodEnd')}</dt>
                  <dd data-testid="subscription-period-end">{formatDateTime(subscription.current_period_end)}</dd>
                </div>
              ) : null}
              {subscription.cancel_at ? (
                <div>
                  <dt>{t('subscription.manageView.cancelAt')}</dt>
                  <dd data-testid="subscription-cancel-at">{formatDateTime(subscription.cancel_at)}</dd>
                </div>
              ) : null}
              <div>
                <dt>{t('subscription.manageView.provider')}</dt>
                <dd>{t(`subscription.manageView.providers.${subscription.provider}`)}</dd>
              </div>
            </dl>
            {subscription.status === 'past_due' || subscription.status === 'unpaid' ? <p className="field__hint">{t('subscription.manageView.pastDueHint')}</p> : null}
            {subscription.status === 'revoked' ? <p className="field__hint">{t('subscription.manageView.revokedHint')}</p> : null}
            <PlanCard plan={subscription.plan} />
          </div>
        ) : null}
        {outcome ? (
          <div data-testid="subscription-cancel-outcome">
            <FormMessage tone={outcome.tone}>{outcome.text}</FormMessage>
          </div>
        ) : null}
        <div className="subscription__buttons">
          {live && canUpgrade(live) ? (
            <IonButton routerLink={paths.upgrade} data-testid="subscription-upgrade">
              {t('subscription.manageView.upgrade')}
            </IonButton>
          ) : null}
          {cancellable ? (
            <IonButton color="danger" fill="outline" disabled={cancelling} onClick={() => setConfirming(true)} data-testid="subscription-cancel">
              {cancelling ? t('subscription.manageView.cancelling') : t('subscription.manageView.cancel')}
            </IonButton>
          ) : null}
          {loaded.kind === 'loaded' && !live ? (
            <IonButton routerLink={paths.subscription} data-testid="subscription-subscribe">
              {t('subscription.manageView.subscribe')}
            </IonButton>
          ) : null}
        </div>
      </section>
      {live ? (
        <Dialog open={confirming} onClose={() => setConfirming(false)} labelledBy="cancel-subscription-title" closeLabel={t('form.close')} testId="cancel-dialog">
          <h2 id="cancel-subscription-title">{t('subscription.manageView.confirmTitle')}</h2>
          <p>{t('subscription.manageView.confirmBody', { date: live.current_period_end ? formatDateTime(live.current_period_end) : '' })}</p>
          <div className="dialog__actions">
            <IonButton fill="clear" onClick={() => setConfirming(false)}>
              {t('subscription.manageView.confirmNo')}
            </IonButton>
            <IonButton color="danger" onClick={() => void cancel(live)} data-testid="cancel-confirm">
              {t('subscription.manageView.confirmYes')}
            </IonButton>
          </div>
        </Dialog>
      ) : null}
    </HomeLayout>
  );
}
