// /subscription (SPEC §2 Subscription plans): a back button and the plan cards — name, price per
// interval, description, features and the tokens each period brings — monthly by default with a
// yearly switch. Choosing a plan goes to the local provider's checkout carrying it; a seller who
// already has a plan sees it marked and is sent to the upgrade screen instead.
import '../../lib/account-texts';
import { useCallback, useEffect, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isLiveSubscription, type Plan, type PlanInterval } from '../../../contract/billing';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { onlineAtom, subscriptionAtom } from '../../lib/store';
import { getPlans } from '../../billing/subscriptions';
import { getMethods } from '../../billing/api';
import { BackButton, PlanCard } from './parts';
import { checkoutPath } from './routes';
import '../../billing/billing.css';
import './subscription.css';

export default function PlansPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const online = useAtomValue(onlineAtom);
  const subscription = useAtomValue(subscriptionAtom);
  const live = isLiveSubscription(subscription) ? subscription : null;
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [interval, chooseInterval] = useState<PlanInterval>('month');

  // No payment service on this server: the plans are shown, but none can be bought.
  const [buyable, setBuyable] = useState(true);
  const load = useCallback(() => {
    // The methods only say whether anything can be bought; failing to read them hides nothing.
    getMethods().then(
      (methods) => setBuyable(methods.length > 0),
      () => setBuyable(true),
    );
    return getPlans()
      .then((loaded) => {
        setPlans(loaded);
        setFailure(null);
      })
      .catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const shown = plans?.filter((plan) => plan.interval === interval) ?? [];
  const title = t('subscription.title');
  return (
    <HomeLayout title={title} testId="plans-page">
      <section className="subscription">
        <BackButton />
        <h1>{title}</h1>
        <p className="subscription__lead">{t('subscription.lead')}</p>
        {live ? (
          <p className="subscription__current">
            {t('subscription.yours')}: <strong>{live.plan.name}</strong>{' '}
            <IonButton fill="clear" size="small" routerLink={paths.subscription_manage}>
              {t('subscription.manage')}
            </IonButton>
          </p>
        ) : null}
        <div className="subscription__interval" role="radiogroup" aria-label={t('subscription.intervalSwitch')}>
          {(['month', 'year'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={interval === value}
              className={`subscription__interval-option${interval === value ? ' subscription__interval-option--on' : ''}`}
              onClick={() => chooseInterval(value)}
              data-testid={`interval-${value}`}
            >
              {t(value === 'month' ? 'subscription.monthly' : 'subscription.yearly')}
            </button>
          ))}
        </div>
        {!online ? <p className="field__error">{t('subscription.offline')}</p> : null}
        {failure && !plans ? (
          <div className="billing-problem" role="alert">
            <span>
              {t('subscription.loadFailed')} {failure}
            </span>
            <IonButton size="small" fill="outline" onClick={() => void load()}>
              {t('subscription.retry')}
            </IonButton>
          </div>
        ) : null}
        {!plans && !failure ? (
          <p role="status" className="billing-loading">
            <Spinner /> {t('subscription.loading')}
          </p>
        ) : null}
        {plans && !buyable && !live ? (
          <p className="billing-problem" role="status" data-testid="plans-unavailable">
            {t('subscription.unavailable')}
          </p>
        ) : null}
        <div className="subscription__plans" data-testid="plan-list">
          {shown.map((plan) => {
            const current = live?.plan.id === plan.id;
            return (
              <PlanCard key={`${plan.id}-${plan.interval}`} plan={plan} current={current}>
                <IonButton
                  expand="block"
                  disabled={current || !online || (!buyable && !live)}
                  data-testid={`choose-plan-${plan.id}`}
                  onClick={() => navigate(live ? paths.upgrade : checkoutPath(plan.id, plan.interval))}
                >
                  {t(current ? 'subscription.current' : 'subscription.choose')}
                </IonButton>
              </PlanCard>
            );
          })}
        </div>
      </section>
    </HomeLayout>
  );
}
