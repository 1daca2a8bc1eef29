// /upgrade (SPEC §4 upgrade, §8 upgrade alerts): allowed only for an active subscription with no
// cancel date below plan 4 — otherwise the seller is sent to subscription management. The current
// plan (button "current") and the plans after it (button "upgrade"); choosing one asks to confirm
// (plan name, what is charged and credited), then shows progress, then the result with a home
// button. The card provider is given 3 s after the change; the local provider's subscription is
// read up to 24 times, 5 s apart, until it is active on the new plan, otherwise statusInvalid.
import '../../lib/account-texts';
import { useEffect, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { canUpgrade, chargeMinor, type PaymentMethodInfo, type Plan, type Subscription } from '../../../contract/billing';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { formatDateTime } from '../../content/rules';
import { HomeLayout } from '../../layouts/HomeLayout';
import { ApiError } from '../../lib/api-client';
import { requestWalletRefresh } from '../../lib/app-events';
import { subscriptionAtom } from '../../lib/store';
import { getMethods } from '../../billing/api';
import { formatMoney } from '../../billing/money';
import { pollUntil, sleep } from '../../billing/poll';
import { getMySubscription, getPlans, listLocalSubscriptions, upgradeSubscription } from '../../billing/subscriptions';
import { BackButton, PlanCard, planPrice } from './parts';
import '../../billing/billing.css';
import './subscription.css';

/** SPEC §9: the wait after the card provider's update before the result is shown. */
export const CARD_UPGRADE_WAIT_MS = 3_000;

interface Offer {
  subscription: Subscription;
  plans: Plan[];
  methods: PaymentMethodInfo[];
}

type Stage = { kind: 'idle' } | { kind: 'confirm'; plan: Plan } | { kind: 'progress'; plan: Plan } | { kind: 'result'; tone: 'success' | 'error'; text: string };

/** Changes the plan and waits until the change has taken, as each provider needs. */
async function changePlan(subscription: Subscription, plan: Plan): Promise<boolean> {
  // One key for this confirmation: a repeat of the request cannot charge the upgrade twice.
  const key = crypto.randomUUID();
  if (subscription.provider === 'card') {
    await upgradeSubscription(subscription, plan.id, key);
    await sleep(CARD_UPGRADE_WAIT_MS);
    return true;
  }
  await upgradeSubscription(subscription, plan.id, key);
  const read = await pollUntil(
    async () => (await listLocalSubscriptions({ id: subscription.id }))[0],
    (current) => current?.status === 'active' && current.plan.id === plan.id,
  );
  return read.final;
}

export default function UpgradePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const setStored = useSetAtom(subscriptionAtom);
  const [offer, setOffer] = useState<Offer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });

  useEffect(() => {
    let live = true;
    Promise.all([getMySubscription(), getPlans(), getMethods()])
      .then(([subscription, plans, methods]) => {
        if (!live) return;
        if (!subscription || !canUpgrade(subscription)) {
          navigate(paths.subscription_manage, { replace: true });
          return;
        }
        setOffer({ subscription, plans, methods });
      })
      .catch((error: unknown) => {
        if (live) setFailure(error instanceof Error ? error.message : String(error));
      });
    return () => {
      live = false;
    };
  }, [navigate]);

  const upgrade = async (plan: Plan) => {
    if (!offer) return;
    setStage({ kind: 'progress', plan });
    try {
      const taken = await changePlan(offer.subscription, plan);
      requestWalletRefresh();
      const now = await getMySubscription().catch(() => null);
      if (now) setStored(now);
      setStage(taken ? { kind: 'result', tone: 'success', text: t('subscription.upgrade.success', { plan: plan.name }) } : { kind: 'result', tone: 'error', text: t('subscription.upgrade.statusInvalid') });
    } catch (error) {
      const declined = error instanceof ApiError && error.code === 'PAYMENT_DECLINED';
      const message = error instanceof ApiError ? error.message : t('common.errors.internal_server_error');
      setStage({ kind: 'result', tone: 'error', text: declined ? t('subscription.upgrade.statusInvalid') : t('subscription.upgrade.otherAlert', { message }) });
    }
  };

  const current = offer?.subscription.plan;
  const sameInterval = offer && current ? offer.plans.filter((plan) => plan.interval === current.interval) : [];
  const at = sameInterval.findIndex((plan) => plan.id === current?.id);
  const shown = at >= 0 ? sameInterval.slice(at) : sameInterval;
  const method = offer?.methods.find((candidate) => candidate.provider === offer.subscription.provider);
  const price = (plan: Plan) => (method ? formatMoney(chargeMinor(plan.price, method.per_usd, method.currency), method.currency, i18n.language) : planPrice(plan, i18n.language));

  const title = t('routes.upgrade');
  return (
    <HomeLayout title={title} testId="upgrade-page">
      <section className="subscription">
        <BackButton to={paths.subscription_manage} />
        <h1>{title}</h1>
        <p className="subscription__lead">{t('subscription.upgrade.lead')}</p>
        {failure && !offer ? (
          <div className="billing-problem" role="alert">
            <span>
              {t('subscription.loadFailed')} {failure}
            </span>
          </div>
        ) : null}
        {!offer && !failure ? (
          <p role="status" className="billing-loading">
            <Spinner /> {t('subscription.loading')}
          </p>
        ) : null}
        <div className="subscription__plans" data-testid="upgrade-plans">
          {shown.map((plan) => {
            const isCurrent = plan.id === current?.id;
            return (
              <PlanCard key={plan.id} plan={plan} current={isCurrent}>
                <IonButton expand="block" disabled={isCurrent} onClick={() => setStage({ kind: 'confirm', plan })} data-testid={`upgrade-to-${plan.id}`}>
                  {t(isCurrent ? 'subscription.upgrade.current' : 'subscription.upgrade.choose')}
                </IonButton>
              </PlanCard>
            );
          })}
        </div>
      </section>
      <Dialog open={stage.kind === 'confirm'} onClose={() => setStage({ kind: 'idle' })} labelledBy="upgrade-confirm-title" closeLabel={t('form.close')} testId="upgrade-confirm">
        {stage.kind === 'confirm' && offer ? (
          <>
            <h2 id="upgrade-confirm-title">{t('subscription.upgrade.confirmTitle', { plan: stage.plan.name })}</h2>
            <p>
              {t('subscription.upgrade.confirmNote', {
                price: price(stage.plan),
                count: stage.plan.tokens,
                date: offer.subscription.current_period_end ? formatDateTime(offer.subscription.current_period_end) : '',
              })}
            </p>
            <div className="dialog__actions">
              <IonButton fill="clear" onClick={() => setStage({ kind: 'idle' })}>
                {t('subscription.upgrade.cancel')}
              </IonButton>
              <IonButton onClick={() => void upgrade(stage.plan)} data-testid="upgrade-confirm-button">
                {t('subscription.upgrade.confirm')}
              </IonButton>
            </div>
          </>
        ) : null}
      </Dialog>
      <Dialog open={stage.kind === 'progress'} onClose={() => undefined} dismissible={false} labelledBy="upgrade-progress-title" testId="upgrade-progress">
        <h2 id="upgrade-progress-title" className="subscription__progress">
          <Spinner /> {t('subscription.upgrade.progress')}
        </h2>
      </Dialog>
      <Dialog
        open={stage.kind === 'result'}
        onClose={() => setStage({ kind: 'idle' })}
        labelledBy="upgrade-result-title"
        dismissible={stage.kind === 'result' && stage.tone === 'error'}
        testId="upgrade-result"
      >
        {stage.kind === 'result' ? (
          <>
            <p id="upgrade-result-title" className={`billing-result__text billing-result__text--${stage.tone}`} data-state={stage.tone} data-testid="upgrade-result-text">
              {stage.text}
            </p>
            <div className="dialog__actions">
              <IonButton
                onClick={() => {
                  setStage({ kind: 'idle' });
                  navigate(paths.home);
                }}
                data-testid="upgrade-home"
              >
                {t('subscription.upgrade.home')}
              </IonButton>
            </div>
          </>
        ) : null}
      </Dialog>
    </HomeLayout>
  );
}
