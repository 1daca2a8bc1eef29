// /recharge/result, /recharge/success and /recharge/cancel (SPEC §2 result pages, §4 overlay, §8
// top-up alerts): where the provider sends the seller back. The payment (from the address, or the
// one kept before leaving) is read from the server — never taken from the address — and read
// again while it is pending, so the page says what really happened: a spinner while pending,
// the tokens credited with a home button, or why it failed with a close button. A seller who
// closed the tab on the provider's page and comes back later finds the same answer.
import '../../lib/account-texts';
import { useEffect, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ClientProvider, Payment } from '../../../contract/billing';
import { Spinner } from '../../components/Spinner';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { ApiError } from '../../lib/api-client';
import { requestWalletRefresh } from '../../lib/app-events';
import { forgetPayment, getPayment, rememberedPayment } from '../../billing/api';
import { formatMoney } from '../../billing/money';
import '../../billing/billing.css';
import './recharge.css';

/** How often a pending payment is read again, growing to the longest. */
const FIRST_POLL_MS = 1_500;
const LONGEST_POLL_MS = 10_000;

type Shown = { kind: 'loading' } | { kind: 'payment'; payment: Payment } | { kind: 'missing' } | { kind: 'unknown' };

const uuid = z.uuid();

export default function RechargeResultPage() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const cancelled = location.pathname === paths.recharge_cancel;
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  const [readFailed, setReadFailed] = useState(false);

  const fromAddress = new URLSearchParams(location.search).get('payment_id');
  // Read once: the payment kept before leaving is forgotten when any tab sees it end.
  const [kept] = useState(rememberedPayment);
  const paymentId = fromAddress && uuid.safeParse(fromAddress).success ? fromAddress : (kept?.id ?? null);
  const provider: ClientProvider = kept?.id === paymentId && kept ? kept.provider : location.pathname === paths.recharge_result ? 'localpay' : 'card';

  useEffect(() => {
    if (!paymentId) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wait = FIRST_POLL_MS;
    const read = async () => {
      try {
        const payment = await getPayment(provider, paymentId, controller.signal);
        setReadFailed(false);
        setShown({ kind: 'payment', payment });
        if (payment.status === 'pending') {
          timer = setTimeout(() => void read(), wait);
          wait = Math.min(LONGEST_POLL_MS, wait * 1.5);
          return;
        }
        forgetPayment();
        if (payment.status === 'completed') requestWalletRefresh();
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) {
          forgetPayment();
          setShown({ kind: 'unknown' });
          return;
        }
        setReadFailed(true);
        timer = setTimeout(() => void read(), LONGEST_POLL_MS);
      }
    };
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [paymentId, provider]);

  const title = t(cancelled ? 'routes.recharge_cancel' : location.pathname === paths.recharge_success ? 'routes.recharge_success' : 'routes.recharge_result');
  const showing: Shown = paymentId ? shown : { kind: 'missing' };
  let body;
  let tone: 'pending' | 'success' | 'error' = 'error';
  if (showing.kind === 'loading' || (showing.kind === 'payment' && showing.payment.status === 'pending')) {
    tone = 'pending';
    body = (
      <>
        <Spinner />
        <p className="billing-result__text">{t('recharge.overlay.pending')}</p>
        <p className="billing-result__hint">{t('recharge.overlay.pendingHint')}</p>
      </>
    );
  } else if (showing.kind === 'payment' && showing.payment.status === 'completed') {
    tone = 'success';
    body = (
      <>
        <p className="billing-result__text">{t('recharge.alerts.success', { count: showing.payment.token_amount })}</p>
        <p className="billing-result__hint">{formatMoney(showing.payment.amount, showing.payment.currency, i18n.language)}</p>
      </>
    );
  } else if (showing.kind === 'payment') {
    const reason = showing.payment.failure_reason;
    const key = reason === 'canceled' || (cancelled && reason !== 'expired') ? 'cancelled' : reason === 'expired' ? 'expired' : 'invalidStatus';
    body = <p className="billing-result__text">{t(`recharge.alerts.${key}`)}</p>;
  } else {
    body = <p className="billing-result__text">{t(showing.kind === 'missing' ? 'recharge.alerts.noPayment' : 'recharge.alerts.unknownPayment')}</p>;
  }

  return (
    <HomeLayout title={title} testId="recharge-result-page">
      <section className="recharge-result">
        <h1>{title}</h1>
        <div className={`billing-result billing-result--${tone}`} role="status" aria-live="polite" data-testid="recharge-result" data-state={tone}>
          {body}
          {readFailed ? <p className="field__error">{t('recharge.alerts.statusFailed')}</p> : null}
          {tone === 'success' ? (
            <IonButton routerLink={paths.home} data-testid="recharge-home">
              {t('recharge.overlay.home')}
            </IonButton>
          ) : null}
          {tone === 'error' ? (
            <IonButton routerLink={paths.recharge} routerDirection="back" data-testid="recharge-close">
              {t('recharge.overlay.close')}
            </IonButton>
          ) : null}
        </div>
      </section>
    </HomeLayout>
  );
}
