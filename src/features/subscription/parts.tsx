// Pieces the subscription screens share: the back button, a plan's card, the checkout's stepper
// and the result card with its tone.
import type { ReactNode } from 'react';
import { IonButton } from '@ionic/react';
import { arrowBackOutline, checkmarkCircleOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { planFeatures, type Plan } from '../../../contract/billing';
import { Icon } from '../../components/Icon';
import { paths } from '../../config/paths';

export function BackButton({ to = paths.home }: { to?: string }) {
  const { t } = useTranslation();
  return (
    <IonButton fill="clear" size="small" routerLink={to} routerDirection="back" className="subscription__back" data-testid="subscription-back">
      <Icon icon={arrowBackOutline} />
      {t('subscription.back')}
    </IonButton>
  );
}

/** A plan's price per interval, in dollars as the seller's language writes them. */
export function planPrice(plan: Pick<Plan, 'price'>, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' }).format(plan.price);
}

export function PlanCard({ plan, current = false, children }: { plan: Plan; current?: boolean; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const features = planFeatures(plan);
  return (
    <article className={`plan-card${current ? ' plan-card--current' : ''}`} data-testid={`plan-${plan.id}`} aria-current={current || undefined}>
      <header className="plan-card__head">
        <h2 className="plan-card__name">{plan.name}</h2>
        {current ? <span className="plan-card__badge">{t('subscription.current')}</span> : null}
      </header>
      <p className="plan-card__price">
        <strong data-testid="plan-price">{planPrice(plan, i18n.language)}</strong> <span>{t(`subscription.per.${plan.interval}`)}</span>
      </p>
      <p className="plan-card__tokens" data-testid="plan-tokens">
        {t('subscription.tokens', { count: plan.tokens })}
      </p>
      {plan.description ? <p className="plan-card__description">{plan.description}</p> : null}
      {features.length > 0 ? (
        <ul className="plan-card__features">
          {features.map((feature) => (
            <li key={feature}>
              <Icon icon={checkmarkCircleOutline} />
              {feature}
            </li>
          ))}
        </ul>
      ) : null}
      {children ? <div className="plan-card__action">{children}</div> : null}
    </article>
  );
}

export type Step = 'init' | 'authorise' | 'done';
const STEPS: Step[] = ['init', 'authorise', 'done'];

/** The checkout's three steps (SPEC §2): init → authorise the mandate → done. */
export function Stepper({ step }: { step: Step }) {
  const { t } = useTranslation();
  const at = STEPS.indexOf(step);
  return (
    <ol className="stepper" aria-label={t('subscription.checkout.steps.label')} data-testid="stepper" data-step={step}>
      {STEPS.map((name, index) => (
        <li
          key={name}
          className={`stepper__step${index < at ? ' stepper__step--done' : ''}${index === at ? ' stepper__step--current' : ''}`}
          aria-current={index === at ? 'step' : undefined}
        >
          <span className="stepper__number" aria-hidden="true">
            {index + 1}
          </span>
          <span className="stepper__label">{t(`subscription.checkout.steps.${name}`)}</span>
        </li>
      ))}
    </ol>
  );
}

export type Tone = 'pending' | 'success' | 'error';

export function ResultCard({ tone, testId, children }: { tone: Tone; testId: string; children: ReactNode }) {
  return (
    <div className={`billing-result billing-result--${tone}`} role="status" aria-live="polite" data-testid={testId} data-state={tone}>
      {children}
    </div>
  );
}
