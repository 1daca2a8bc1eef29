// /recharge (SPEC §2 Top-up, §4 overlay, §5, §8): the balance, the token packs as cards (the first
// chosen; choosing the chosen one again clears it), the consumption-history button, the country
// (autocomplete from the language's static list, RU by default, SPEC §9's countries first) and
// the payment method (the first by default). The price is shown in the method's own currency,
// exactly what the provider will charge. Submitting starts the payment, keeps its id for the way
// back, and sends the browser to the provider's page.
import '../../lib/account-texts';
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import {
  chargeMinor,
  DEFAULT_COUNTRY,
  type PaymentMethodInfo,
  type Tiers,
} from '../../../contract/billing';
import { FormMessage } from '../../components/form/Field';
import '../../components/form/form.css';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { ApiError } from '../../lib/api-client';
import { balanceAtom, onlineAtom } from '../../lib/store';
import { getCountries, getMethods, getTiers, rememberPayment, startTopUp, type Country } from '../../billing/api';
import { formatMoney } from '../../billing/money';
import '../../billing/billing.css';
import './recharge.css';

interface Offer {
  tiers: Tiers;
  methods: PaymentMethodInfo[];
  countries: Country[];
}

export default function RechargePage() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const balance = useAtomValue(balanceAtom);
  const online = useAtomValue(onlineAtom);
  const [offer, setOffer] = useState<Offer | null>(null);
  const [loadFailed, setLoadFailed] = useState<string | null>(null);
  const [pack, setPack] = useState<number | null>(null);
  const [countryText, setCountryText] = useState('');
  const [method, setMethod] = useState<string>('');
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(() => {
    return Promise.all([getTiers(), getMethods(), getCountries(i18n.language)])
      .then(([tiers, methods, countries]) => {
        setOffer({ tiers, methods, countries });
        // SPEC §2: the first pack preselected, the first method, RU.
        const packs = Object.keys(tiers).map(Number).sort((a, b) => a - b);
        setPack((current) => current ?? packs[0] ?? null);
        setMethod((current) => current || (methods[0]?.id ?? ''));
        setCountryText((current) => current || (countries.find((country) => country.code === DEFAULT_COUNTRY)?.name ?? ''));
      })
      .then(() => setLoadFailed(null))
      .catch((error: unknown) => setLoadFailed(error instanceof Error ? error.message : String(error)));
  }, [i18n.language]);

  useEffect(() => {
    void load();
  }, [load]);

  const packs = useMemo(() => (offer ? Object.entries(offer.tiers).map(([tokens, usd]) => ({ tokens: Number(tokens), usd })).sort((a, b) => a.tokens - b.tokens) : []), [offer]);
  const chosenMethod = offer?.methods.find((candidate) => candidate.id === method) ?? null;
  const country = offer?.countries.find((candidate) => candidate.name.toLocaleLowerCase() === countryText.trim().toLocaleLowerCase()) ?? null;
  const chosenPack = packs.find((candidate) => candidate.tokens === pack) ?? null;
  const price = (usd: number) =>
    chosenMethod ? formatMoney(chargeMinor(usd, chosenMethod.per_usd, chosenMethod.currency), chosenMethod.currency, i18n.language) : '';
  const cheapestPerToken = packs[0] ? packs[0].usd / packs[0].tokens : 0;
  const valid = Boolean(chosenPack && chosenMethod && country && online);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || !chosenPack || !chosenMethod || !country || sending) return;
    setSending(true);
    setFailure(null);
    try {
      const card = chosenMethod.provider === 'card';
      const started = await startTopUp({
        token_amount: chosenPack.tokens,
        currency: 'USD',
        pm_id: card ? '' : chosenMethod.id,
        payment_provider: chosenMethod.provider,
        country: country.code,
      });
      if (!started.redirect_url) {
        setFailure(t('recharge.alerts.redirectUrlNotFound'));
        setSending(false);
        return;
      }
      rememberPayment({ id: started.payment_id, provider: chosenMethod.provider });
      window.location.assign(started.redirect_url);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : t('common.errors.internal_server_error');
      setFailure(t('recharge.alerts.otherError', { message }));
      setSending(false);
    }
  };

  const title = t('routes.recharge');
  return (
    <HomeLayout title={title} testId="recharge-page">
      <section className="recharge">
        <div className="recharge__head">
          <h1>{title}</h1>
          <IonButton fill="outline" size="small" routerLink={paths.consumption_history} data-testid="recharge-history">
            {t('recharge.history')}
          </IonButton>
        </div>
        <div className="billing-panel" data-testid="recharge-balance">
          <span>{t('recharge.balance')}</span>
          <strong>{balance === null ? t('wallet.unknown') : t('wallet.tokens', { count: balance })}</strong>
        </div>
        {!online ? <FormMessage tone="error">{t('recharge.offline')}</FormMessage> : null}
        {loadFailed && !offer ? (
          <div className="billing-problem" role="alert">
            <span>
              {t('recharge.loadFailed')} {loadFailed}
            </span>
            <IonButton size="small" fill="outline" onClick={() => void load()}>
              {t('recharge.retry')}
            </IonButton>
          </div>
        ) : null}
        {!offer && !loadFailed ? (
          <p role="status" className="billing-loading">
            <Spinner /> {t('recharge.loading')}
          </p>
        ) : null}
        {offer && offer.methods.length === 0 ? (
          <p className="billing-problem" role="status" data-testid="recharge-unavailable">
            {t('recharge.unavailable')}
          </p>
        ) : null}
        {offer && offer.methods.length > 0 ? (
          <form className="auth-form recharge__form" onSubmit={submit} noValidate>
            <fieldset className="recharge__packs">
              <legend className="field-label">{t('recharge.packs')}</legend>
              <div className="recharge__pack-grid" data-testid="recharge-packs">
                {packs.map((candidate) => {
                  const chosen = candidate.tokens === pack;
                  const saving = cheapestPerToken > 0 ? Math.round((1 - candidate.usd / candidate.tokens / cheapestPerToken) * 100) : 0;
                  return (
                    <button
                      key={candidate.tokens}
                      type="button"
                      className={`recharge__pack${chosen ? ' recharge__pack--chosen' : ''}`}
                      aria-pressed={chosen}
                      data-testid={`pack-${candidate.tokens}`}
                      onClick={() => setPack(chosen ? null : candidate.tokens)}
                    >
                      <span className="recharge__pack-tokens">{t('recharge.pack', { count: candidate.tokens })}</span>
                      <span className="recharge__pack-price">{price(candidate.usd)}</span>
                      {saving > 0 ? <span className="recharge__pack-saving">{t('recharge.saving', { percent: saving })}</span> : null}
                    </button>
                  );
                })}
              </div>
              {chosenPack ? null : (
                <p className="field__error" role="alert" data-testid="recharge-no-pack">
                  {t('recharge.alerts.itemNotFound')}
                </p>
              )}
            </fieldset>
            <div className={`field${countryText && !country ? ' field--invalid' : ''}`}>
              <label htmlFor={`${id}-country`}>{t('recharge.country')}</label>
              <input
                id={`${id}-country`}
                list={`${id}-countries`}
                value={countryText}
                autoComplete="country-name"
                placeholder={t('recharge.countryPlaceholder')}
                onChange={(event) => setCountryText(event.target.value)}
                aria-invalid={!country || undefined}
                aria-describedby={`${id}-country-help`}
                data-testid="recharge-country"
                required
              />
              <datalist id={`${id}-countries`}>
                {offer.countries.map((candidate) => (
                  <option key={candidate.code} value={candidate.name} />
                ))}
              </datalist>
              {country ? null : (
                <p id={`${id}-country-help`} className="field__error">
                  {t('recharge.countryNotFound')}
                </p>
              )}
            </div>
            <div className="field">
              <label htmlFor={`${id}-method`}>{t('recharge.method')}</label>
              <select id={`${id}-method`} value={method} onChange={(event) => setMethod(event.target.value)} data-testid="recharge-method" required>
                {offer.methods.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {t(`recharge.methods.${candidate.id}`)}
                  </option>
                ))}
              </select>
            </div>
            {chosenPack && chosenMethod ? (
              <div className="billing-panel recharge__total" data-testid="recharge-total">
                <span>{t('recharge.total')}</span>
                <strong>{price(chosenPack.usd)}</strong>
                {chosenMethod.currency !== 'USD' ? <p className="field__hint">{t('recharge.rate', { rate: chosenMethod.per_usd })}</p> : null}
              </div>
            ) : null}
            {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
            <IonButton type="submit" expand="block" disabled={!valid || sending} data-testid="recharge-submit">
              {t('recharge.submit')}
            </IonButton>
          </form>
        ) : null}
      </section>
      {sending ? (
        <div className="billing-overlay" role="status" aria-live="polite" data-testid="recharge-overlay">
          <div className="billing-overlay__card">
            <Spinner />
            <p>{t('recharge.redirecting')}</p>
          </div>
        </div>
      ) : null}
    </HomeLayout>
  );
}
