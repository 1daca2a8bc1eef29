// /subscription/result, /subscription/success and /subscription/cancel (SPEC §2 result pages, §4
// local-provider checkout, §8 subscription alerts): where a provider sends the seller back. Every
// answer is the server's, never the address's: after the local provider, the mandate kept before
// leaving is read until it is authorised (or not), the subscription is started with it under the
// kept reference (a reload or a second tab answers the same one) and read until it is active;
// after the card provider, its checkout is read until it completes.
import '../../lib/account-texts';
import { useEffect, useMemo, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../../../contract/billing';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { ApiError } from '../../lib/api-client';
import { requestWalletRefresh } from '../../lib/app-events';
import { refreshSubscription } from '../../account/session';
import { pollUntil } from '../../billing/poll';
import {
  forgetCheckout,
  getCheckoutSession,
  listLocalSubscriptions,
  listMandates,
  rememberedCheckout,
  subscribeWithMandate,
  type PendingCheckout,
} from '../../billing/subscriptions';
import { ResultCard, Stepper, type Step } from './parts';
import '../../billing/billing.css';
import './subscription.css';

type Alert = 'authorizationIncomplete' | 'alreadySubscribed' | 'invalidStatus' | 'cancelled' | 'otherError' | 'statusFailed';
type Shown =
  | { kind: 'working'; text: 'waiting' | 'subscribing' | 'checking' }
  | { kind: 'success'; plan: string }
  | { kind: 'alert'; alert: Alert; message?: string }
  | { kind: 'missing' };

class Stop extends Error {
  constructor(readonly shown: Shown) {
    super('stop');
  }
}

const alertOf = (error: unknown): Shown =>
  error instanceof Stop
    ? error.shown
    : error instanceof ApiError && error.code === 'ALREADY_SUBSCRIBED'
      ? { kind: 'alert', alert: 'alreadySubscribed' }
      : { kind: 'alert', alert: 'otherError', message: error instanceof Error ? error.message : String(error) };

/** The local provider's way back: the mandate authorised, then the subscription it pays for. */
async function finishLocal(checkout: PendingCheckout, show: (shown: Shown) => void, signal: AbortSignal): Promise<Subscription> {
  show({ kind: 'working', text: 'waiting' });
  const mandate = await pollUntil(
    async () => (await listMandates({ mandate_id: checkout.mandate_id }, signal))[0],
    (found) => !found || found.status !== 'pending',
    { signal },
  );
  if (!mandate.final) throw new Stop({ kind: 'alert', alert: 'statusFailed' });
  if (mandate.value?.status !== 'active') throw new Stop({ kind: 'alert', alert: 'authorizationIncomplete' });
  show({ kind: 'working', text: 'subscribing' });
  const started = await subscribeWithMandate({ plan_id: checkout.plan_id, mandate_id: checkout.mandate_id, reference: checkout.reference, interval: checkout.interval });
  if (started.status !== 'pending') return started;
  const read = await pollUntil(
    async () => (await listLocalSubscriptions({ id: started.id }, signal))[0] ?? started,
    (sub) => sub.status !== 'pending',
    { signal },
  );
  return read.value ?? started;
}

/** The card provider's way back: its checkout read until it completes. */
async function finishCard(sessionId: string, show: (shown: Shown) => void, signal: AbortSignal): Promise<Subscription> {
  show({ kind: 'working', text: 'checking' });
  const read = await pollUntil(
    () => getCheckoutSession(sessionId, signal),
    (session) => session.status !== 'open' && session.subscription?.status !== 'pending',
    { signal },
  );
  if (!read.final) throw new Stop({ kind: 'alert', alert: 'statusFailed' });
  if (read.value?.status === 'expired' || !read.value?.subscription) throw new Stop({ kind: 'alert', alert: 'invalidStatus' });
  return read.value.subscription;
}

export default function SubscriptionResultPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const cancelled = location.pathname === paths.subscription_cancel;
  const sessionId = params.get('session_id');
  const mandateId = params.get('mandate_id');
  // Read once: the checkout is forgotten when it ends.
  const [kept] = useState(rememberedCheckout);
  const checkout = useMemo(() => (kept && (!mandateId || kept.mandate_id === mandateId) ? kept : null), [kept, mandateId]);
  const [shown, setShown] = useState<Shown>(() =>
    cancelled ? { kind: 'alert', alert: 'cancelled' } : checkout || sessionId ? { kind: 'working', text: 'checking' } : { kind: 'missing' },
  );

  useEffect(() => {
    if (cancelled) {
      forgetCheckout();
      return;
    }
    if (!checkout && !sessionId) return;
    const controller = new AbortController();
    const show = (next: Shown) => {
      if (!controller.signal.aborted) setShown(next);
    };
    const finish = checkout ? finishLocal(checkout, show, controller.signal) : finishCard(sessionId!, show, controller.signal);
    finish
      .then((subscription) => {
        if (subscription.status !== 'active') throw new Stop({ kind: 'alert', alert: 'invalidStatus' });
        forgetCheckout();
        requestWalletRefresh();
        void refreshSubscription().catch(() => {});
        show({ kind: 'success', plan: subscription.plan.name });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const next = alertOf(error);
        // A checkout that ended one way or the other is not resumed again; a read that failed is.
        if (next.kind === 'alert' && next.alert !== 'statusFailed' && next.alert !== 'otherError') forgetCheckout();
        show(next);
      });
    return () => controller.abort();
  }, [cancelled, sessionId, checkout]);

  const step: Step = shown.kind === 'success' ? 'done' : shown.kind === 'working' && shown.text !== 'waiting' ? 'done' : 'authorise';
  const title = t(cancelled ? 'routes.subscription_cancel' : location.pathname === paths.subscription_success ? 'routes.subscription_success' : 'routes.subscription_result');
  const tone = shown.kind === 'working' ? 'pending' : shown.kind === 'success' ? 'success' : 'error';
  return (
    <HomeLayout title={title} testId="subscription-result-page">
      <section className="subscription subscription--narrow">
        <h1>{title}</h1>
        {checkout && !cancelled ? <Stepper step={step} /> : null}
        <ResultCard tone={tone} testId="subscription-result">
          {shown.kind === 'working' ? (
            <>
              <Spinner />
              <p className="billing-result__text">{t(`subscription.result.${shown.text}`)}</p>
            </>
          ) : null}
          {shown.kind === 'success' ? <p className="billing-result__text">{t('subscription.alerts.success', { plan: shown.plan })}</p> : null}
          {shown.kind === 'alert' ? (
            <p className="billing-result__text" data-alert={shown.alert}>
              {t(`subscription.alerts.${shown.alert}`, { message: shown.message ?? '' })}
            </p>
          ) : null}
          {shown.kind === 'missing' ? <p className="billing-result__text">{t('subscription.result.noCheckout')}</p> : null}
          <div className="subscription__result-actions">
            {shown.kind === 'success' ? (
              <>
                <IonButton routerLink={paths.home} data-testid="subscription-home">
                  {t('subscription.result.home')}
                </IonButton>
                <IonButton fill="outline" routerLink={paths.subscription_manage}>
                  {t('subscription.result.manage')}
                </IonButton>
              </>
            ) : null}
            {shown.kind === 'alert' || shown.kind === 'missing' ? (
              <IonButton routerLink={paths.subscription} routerDirection="back" data-testid="subscription-plans">
                {t('subscription.result.plans')}
              </IonButton>
            ) : null}
          </div>
        </ResultCard>
      </section>
    </HomeLayout>
  );
}
