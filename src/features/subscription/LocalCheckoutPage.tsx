// /localpay/subscription (SPEC §2 Local-provider subscription checkout, §4, §5): the chosen plan's
// card, the three-step stepper, and the billing form — country (RU by default), state, city,
// address, payment method, and the Subscription form's id type, id number and marketing channel
// when the seller wishes. Submitting keeps the seller's details with the provider, then reuses an
// active mandate for the method (straight to the result) or creates one and sends the browser to
// the provider to authorise it; an international card goes to the card provider's checkout.
import '../../lib/account-texts';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  chargeMinor,
  DEFAULT_COUNTRY,
  ID_TYPES,
  localCheckoutFormSchema,
  MARKETING_CHANNELS,
  PLAN_INTERVALS,
  providerOfMethod,
  type LocalMethod,
  type PaymentMethodInfo,
  type Plan,
  type PlanInterval,
} from '../../../contract/billing';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import '../../components/form/form.css';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { ApiError } from '../../lib/api-client';
import { onlineAtom, userAtom } from '../../lib/store';
import { getCountries, getMethods, type Country } from '../../billing/api';
import { formatMoney } from '../../billing/money';
import { createCardSubscription, createMandate, getPlans, listMandates, rememberCheckout, saveCustomer } from '../../billing/subscriptions';
import { BackButton, PlanCard, Stepper } from './parts';
import '../../billing/billing.css';
import './subscription.css';

interface Offer {
  plan: Plan | null;
  methods: PaymentMethodInfo[];
  countries: Country[];
}

/** The plan the address carries: its id and interval (monthly when none is named). */
function planFromAddress(search: string): { id: number; interval: PlanInterval } | null {
  const params = new URLSearchParams(search);
  const id = Number(params.get('plan_id'));
  const interval = params.get('interval') ?? 'month';
  if (!Number.isInteger(id) || id < 1 || !(PLAN_INTERVALS as readonly string[]).includes(interval)) return null;
  return { id, interval: interval as PlanInterval };
}

export default function LocalCheckoutPage() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const wanted = planFromAddress(location.search);
  const [offer, setOffer] = useState<Offer | null>(null);
  const [loadFailed, setLoadFailed] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const wantedId = wanted?.id;
  const wantedInterval = wanted?.interval;
  useEffect(() => {
    let live = true;
    Promise.all([getPlans(), getMethods(), getCountries(i18n.language)])
      .then(([plans, methods, countries]) => {
        if (!live) return;
        setOffer({ plan: plans.find((plan) => plan.id === wantedId && plan.interval === wantedInterval) ?? null, methods, countries });
      })
      .catch((error: unknown) => {
        if (live) setLoadFailed(error instanceof Error ? error.message : String(error));
      });
    return () => {
      live = false;
    };
  }, [i18n.language, wantedId, wantedInterval]);

  const title = t('subscription.checkout.title');
  return (
    <HomeLayout title={title} testId="local-checkout-page">
      <section className="subscription subscription--narrow">
        <BackButton to={paths.subscription} />
        <h1>{title}</h1>
        <Stepper step="init" />
        {loadFailed && !offer ? (
          <div className="billing-problem" role="alert">
            <span>
              {t('subscription.loadFailed')} {loadFailed}
            </span>
          </div>
        ) : null}
        {!offer && !loadFailed ? (
          <p role="status" className="billing-loading">
            <Spinner /> {t('subscription.loading')}
          </p>
        ) : null}
        {offer && !offer.plan ? (
          <div className="billing-problem" role="alert" data-testid="checkout-no-plan">
            <span>{t('subscription.checkout.planMissing')}</span>
            <IonButton size="small" fill="outline" routerLink={paths.subscription}>
              {t('subscription.result.plans')}
            </IonButton>
          </div>
        ) : null}
        {offer?.plan ? (
          <>
            <PlanCard plan={offer.plan} />
            <CheckoutForm key={offer.plan.id} offer={offer} plan={offer.plan} sending={sending} onSending={setSending} />
          </>
        ) : null}
      </section>
      {sending ? (
        <div className="billing-overlay" role="status" aria-live="polite" data-testid="checkout-overlay">
          <div className="billing-overlay__card">
            <Spinner />
            <p>{t('subscription.checkout.redirecting')}</p>
          </div>
        </div>
      ) : null}
    </HomeLayout>
  );
}

/** The billing form, started with Russia and the first method once the offer is known. */
function CheckoutForm({ offer, plan, sending, onSending }: { offer: Offer; plan: Plan; sending: boolean; onSending: (sending: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const online = useAtomValue(onlineAtom);
  const user = useAtomValue(userAtom);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm(localCheckoutFormSchema, {
    country: offer.countries.find((country) => country.code === DEFAULT_COUNTRY)?.name ?? '',
    state: '',
    city: '',
    address: '',
    method: offer.methods[0]?.id ?? '',
    id_type: '',
    id_number: '',
    channel: '',
  });

  const country = offer.countries.find((candidate) => candidate.name.toLocaleLowerCase() === form.values.country.trim().toLocaleLowerCase()) ?? null;
  const method = offer.methods.find((candidate) => candidate.id === form.values.method) ?? null;

  const stop = (message: string) => {
    setFailure(message);
    onSending(false);
  };
  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'ALREADY_SUBSCRIBED') stop(t('subscription.alerts.alreadySubscribed'));
    else stop(t('subscription.alerts.otherError', { message: error instanceof ApiError ? error.message : t('common.errors.internal_server_error') }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = form.validate();
    if (!values || !country || !method || sending || !online) return;
    onSending(true);
    setFailure(null);
    try {
      if (providerOfMethod(method.id) === 'card') {
        const started = await createCardSubscription(plan.id, plan.interval);
        if (!started.redirect_url) return stop(t('subscription.alerts.redirectUrlNotFound'));
        window.location.assign(started.redirect_url);
        return;
      }
      await saveCustomer({
        reference: `seller:${user?.id ?? 'unknown'}`,
        email: user?.email,
        country: country.code,
        address: values.address,
        billing_address: { country: country.code, state: values.state, city: values.city, line1: values.address },
        ...(values.channel ? { channel: values.channel } : {}),
        ...(values.id_type ? { id_type: values.id_type } : {}),
        ...(values.id_number ? { id_number: values.id_number } : {}),
      });
      const localMethod = method.id as LocalMethod;
      const checkout = { plan_id: plan.id, interval: plan.interval, reference: crypto.randomUUID() };
      // SPEC §4: an active mandate for the method is reused; otherwise one is created and authorised.
      const [active] = await listMandates({ payment_method: localMethod, mandate_status: 'active' });
      if (active) {
        rememberCheckout({ ...checkout, mandate_id: active.id });
        onSending(false);
        navigate(paths.subscription_result);
        return;
      }
      const mandate = await createMandate(crypto.randomUUID(), localMethod);
      if (!mandate.redirect_url) return stop(t('subscription.alerts.redirectUrlNotFound'));
      rememberCheckout({ ...checkout, mandate_id: mandate.id });
      window.location.assign(mandate.redirect_url);
    } catch (error) {
      fail(error);
    }
  };

  const cardChosen = method ? providerOfMethod(method.id) === 'card' : false;
  const countryError = form.error('country') ?? (country ? undefined : t('subscription.checkout.countryNotFound'));
  return (
    <form className="auth-form subscription__form" onSubmit={submit} noValidate data-testid="checkout-form">
      <div className={`field${countryError ? ' field--invalid' : ''}`}>
        <label htmlFor={`${id}-country`}>{t('subscription.checkout.country')}</label>
        <input
          id={`${id}-country`}
          list={`${id}-countries`}
          value={form.values.country}
          autoComplete="country-name"
          onChange={(event) => form.set('country', event.target.value)}
          aria-invalid={countryError ? true : undefined}
          aria-describedby={countryError ? `${id}-country-error` : undefined}
          data-testid="checkout-country"
          required
        />
        <datalist id={`${id}-countries`}>
          {offer.countries.map((candidate) => (
            <option key={candidate.code} value={candidate.name} />
          ))}
        </datalist>
        {countryError ? (
          <p id={`${id}-country-error`} className="field__error">
            {countryError}
          </p>
        ) : null}
      </div>
      <Field form={form} name="state" label={t('subscription.checkout.state')} autoComplete="address-level1" data-testid="checkout-state" required />
      <Field form={form} name="city" label={t('subscription.checkout.city')} autoComplete="address-level2" data-testid="checkout-city" required />
      <Field form={form} name="address" label={t('subscription.checkout.address')} autoComplete="street-address" data-testid="checkout-address" required />
      <div className="field">
        <label htmlFor={`${id}-method`}>{t('subscription.checkout.method')}</label>
        <select id={`${id}-method`} value={form.values.method} onChange={(event) => form.set('method', event.target.value)} data-testid="checkout-method" required>
          {offer.methods.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {t(`recharge.methods.${candidate.id}`)}
            </option>
          ))}
        </select>
        <p className="field__hint">{t(cardChosen ? 'subscription.checkout.cardNote' : 'subscription.checkout.mandateNote')}</p>
      </div>
      <details className="subscription__more">
        <summary>{t('subscription.checkout.more')}</summary>
        <div className="field">
          <label htmlFor={`${id}-id-type`}>{t('subscription.checkout.idType')}</label>
          <select id={`${id}-id-type`} value={form.values.id_type} onChange={(event) => form.set('id_type', event.target.value)} data-testid="checkout-id-type">
            <option value="">{t('subscription.checkout.choose')}</option>
            {ID_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`subscription.checkout.idTypes.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <Field form={form} name="id_number" label={t('subscription.checkout.idNumber')} autoComplete="off" data-testid="checkout-id-number" />
        <div className="field">
          <label htmlFor={`${id}-channel`}>{t('subscription.checkout.channel')}</label>
          <select id={`${id}-channel`} value={form.values.channel} onChange={(event) => form.set('channel', event.target.value)} data-testid="checkout-channel">
            <option value="">{t('subscription.checkout.choose')}</option>
            {MARKETING_CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {t(`auth.register.channels.${channel}`)}
              </option>
            ))}
          </select>
        </div>
      </details>
      {method ? (
        <div className="billing-panel" data-testid="checkout-total">
          <span>{t('subscription.checkout.total')}</span>
          <strong>{formatMoney(chargeMinor(plan.price, method.per_usd, method.currency), method.currency, i18n.language)}</strong>
        </div>
      ) : null}
      {!online ? <FormMessage tone="error">{t('subscription.offline')}</FormMessage> : null}
      {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
      <IonButton type="submit" expand="block" disabled={sending || !online} data-testid="checkout-submit">
        {t('subscription.checkout.submit')}
      </IonButton>
    </form>
  );
}
