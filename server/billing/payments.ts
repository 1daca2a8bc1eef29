// Top-ups (DESIGN §4 Billing): a payment for a token pack is created pending with the provider's
// checkout; only the provider moves it on — a verified notification, or its own answer when
// reconciliation asks — and the credit is written in the same transaction as the payment's new
// status and the provider's event id, so whatever a provider repeats, reorders or loses, a
// payment credits once. A refund takes the tokens back as far as the balance allows. Each step a
// payment takes is told to the metrics once it is committed; a call from a request or a
// notification logs to that request's log, so its lines carry the request's id.
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { paymentEvents, payments } from '../db/schema';
import { HttpError } from '../lib/errors';
import type { Ledger } from '../ledger/ledger';
import {
  chargeMinor,
  providerOfMethod,
  type ChargeCurrency,
  type ClientProvider,
  type PaymentMethod,
  type PaymentMethodInfo,
  type TopUpRequest,
} from '../../contract/billing';
import type { PriceList } from './prices';
import type { PaymentOutcome } from '../metrics/metrics';
import { applyDispute, tokensFor, type PaidTarget } from './disputes';
import {
  NotificationRejected,
  ProviderRefused,
  ProviderUnavailable,
  type PaymentEvent,
  type ProviderName,
  type Providers,
  providerNamed,
  type RemotePayment,
  type RemoteState,
  type ReversalEvent,
} from './provider';

export type PaymentRow = typeof payments.$inferSelect;

/** How long after its creation reconciliation first asks about a pending payment, then between asks (growing). */
const FIRST_CHECK_MS = 2 * 60_000;
const LONGEST_CHECK_MS = 6 * 60 * 60_000;
/** A payment the provider still calls pending after this long is given up as expired. */
const GIVE_UP_MS = 7 * 24 * 60 * 60_000;
/** The status route asks the provider itself at most this often per payment while it is pending. */
const STATUS_ASK_MS = 5_000;

export interface PaymentsOptions {
  db: Database;
  ledger: Ledger;
  log: FastifyBaseLogger;
  prices: PriceList;
  /** The provider behind each of the page's provider names; an absent one sells nothing. */
  providers: Providers;
  publicUrl: string;
  /** A seller's tokens changed: tell their open pages. */
  walletChanged(userId: string): void;
  /** A payment took a step (the metrics): told once the step is committed. */
  stepped?(provider: string, step: PaymentOutcome): void;
  now?: () => Date;
}

/** One call's log, and the steps it moved a payment through, told once its transaction commits. */
interface Call {
  log: FastifyBaseLogger;
  steps: PaymentOutcome[];
}

export type Payments = ReturnType<typeof createPayments>;

export function createPayments(options: PaymentsOptions) {
  const { db, ledger, log, prices, providers } = options;
  const now = options.now ?? (() => new Date());
  const lastAsked = new Map<string, number>();
  const stepped = (provider: string, step: PaymentOutcome) => options.stepped?.(provider, step);
  const callOf = (callLog: FastifyBaseLogger = log): Call => ({ log: callLog, steps: [] });
  const told = (provider: string, call: Call) => {
    for (const step of call.steps) stepped(provider, step);
  };

  const currencyOf = (provider: ClientProvider): ChargeCurrency => (provider === 'card' ? 'USD' : 'RUB');
  const perUsd = (currency: ChargeCurrency) => (currency === 'USD' ? 1 : prices.rub_per_usd);

  /** The methods the top-up form offers, with the currency each charges in. */
  const methods = (): PaymentMethodInfo[] =>
    (['card', 'localpay'] as const).flatMap((client) => {
      const currency = currencyOf(client);
      return (providers[client]?.methods ?? [])
        .filter((method) => providerOfMethod(method) === client)
        .map((method) => ({ id: method, provider: client, currency, per_usd: perUsd(currency) }));
    });

  /** Reads what the page asked for: a pack on the price list, through a method its provider takes. */
  const resolveRequest = (request: TopUpRequest) => {
    const pack = prices.packs.find((candidate) => candidate.tokens === request.token_amount);
    if (!pack) throw new HttpError(400, 'UNKNOWN_PACK', 'UNKNOWN_PACK');
    const method: PaymentMethod = request.pm_id === '' ? 'card_intl' : request.pm_id;
    if (request.pm_id === '' && request.payment_provider !== 'card') throw new HttpError(400, 'METHOD_REQUIRED', 'METHOD_REQUIRED');
    if (providerOfMethod(method) !== request.payment_provider) throw new HttpError(400, 'METHOD_MISMATCH', 'METHOD_MISMATCH');
    const provider = providers[request.payment_provider];
    // No keys for it on this server (and no sandbox): nothing can be bought through it.
    if (!provider) throw new HttpError(503, 'PAYMENT_UNAVAILABLE', 'PAYMENT_METHOD_ABSENT');
    if (!provider.methods.includes(method)) throw new HttpError(400, 'METHOD_UNAVAILABLE', 'METHOD_UNAVAILABLE');
    const currency = currencyOf(request.payment_provider);
    return { pack, method, provider, currency, amountMinor: chargeMinor(pack.usd, perUsd(currency), currency) };
  };

  const returnUrls = (paymentId: string, client: ClientProvider) => ({
    successUrl: `${options.publicUrl}/recharge/${client === 'card' ? 'success' : 'result'}?payment_id=${paymentId}`,
    cancelUrl: `${options.publicUrl}/recharge/cancel?payment_id=${paymentId}`,
  });

  /**
   * The common case in one statement (one round trip, one commit): a success for a pending payment
   * of the amount it was made for records the event, completes the payment and credits it. Null
   * when the statement recorded nothing (a repeat, an unknown or mismatched payment, another
   * amount), which the general path then says why.
   */
  const completeAtOnce = async (providerName: ProviderName, event: Extract<PaymentEvent, { kind: 'succeeded' }>): Promise<string | null> => {
    const result = await db.execute(sql`
      WITH target AS (
        SELECT id FROM payments
        WHERE provider = ${providerName} AND provider_payment_id = ${event.providerPaymentId} AND status = 'pending'
          AND amount_minor = ${event.amountMinor} AND currency = ${event.currency.toUpperCase()}
          AND (${event.paymentId}::uuid IS NULL OR id = ${event.paymentId}::uuid)
      ), recorded AS (
        INSERT INTO payment_events (provider, event_id, payment_id, kind)
        SELECT ${providerName}, ${event.eventId}, target.id, 'succeeded' FROM target
        ON CONFLICT DO NOTHING
        RETURNING payment_id
      ), paid AS (
        UPDATE payments SET status = 'completed', failure_reason = NULL, settled_at = ${now().toISOString()}::timestamptz
        WHERE id IN (SELECT payment_id FROM recorded) AND status = 'pending'
        RETURNING id, user_id, tokens
      ), ${ledger.creditTopUpCtes()}
      SELECT paid.user_id AS "userId" FROM paid`);
    return (result as unknown as { rows: { userId: string }[] }).rows[0]?.userId ?? null;
  };

  /** Applies one event to its payment, in one transaction; true when it changed anything. `callLog`: the notification's request's. */
  const apply = async (providerName: ProviderName, event: PaymentEvent | Extract<ReversalEvent, { kind: 'disputed' }>, callLog?: FastifyBaseLogger): Promise<boolean> => {
    if (event.kind === 'succeeded') {
      const userId = await completeAtOnce(providerName, event);
      if (userId) {
        stepped(providerName, 'completed');
        options.walletChanged(userId);
        return true;
      }
    }
    const call = callOf(callLog);
    const { log } = call;
    const changed = await db.transaction(async (tx) => {
      const [payment] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.provider, providerName), eq(payments.providerPaymentId, event.providerPaymentId)))
        .for('update');
      if (!payment) {
        log.warn({ provider: providerName, providerPaymentId: event.providerPaymentId }, 'a notification names no payment of ours: ignored');
        return null;
      }
      if ('paymentId' in event && event.paymentId && event.paymentId !== payment.id) {
        throw new NotificationRejected(`the notification's payment ${event.paymentId} is not the one its checkout was made for`);
      }
      const recorded = await tx
        .insert(paymentEvents)
        .values({ provider: providerName, eventId: event.eventId, paymentId: payment.id, kind: event.kind })
        .onConflictDoNothing()
        .returning({ eventId: paymentEvents.eventId });
      if (recorded.length === 0) return null;
      if (event.kind === 'disputed') return dispute(tx, payment, providerName, event, call);
      return settle(tx, payment, event, call);
    });
    told(providerName, call);
    if (changed) options.walletChanged(changed.userId);
    return Boolean(changed);
  };

  /** Moves a locked payment on by what the provider says; the row when tokens or its status moved. */
  const settle = async (tx: Database, payment: PaymentRow, event: PaymentEvent | (RemoteState & { refundedMinor: number }), call: Call): Promise<PaymentRow | null> => {
    const { log, steps } = call;
    const kind = 'kind' in event ? event.kind : event.status;
    let row = payment;
    let moved = false;
    const complete = async () => {
      if (row.status === 'completed') return;
      [row] = (await tx
        .update(payments)
        .set({ status: 'completed', failureReason: null, settledAt: now() })
        .where(eq(payments.id, row.id))
        .returning()) as [PaymentRow];
      await ledger.creditTopUp(row.userId, row.id, row.tokens, tx);
      steps.push('completed');
      moved = true;
    };

    if (kind === 'succeeded') {
      const paid = event as { amountMinor: number; currency: string };
      if (paid.amountMinor !== payment.amountMinor || paid.currency.toUpperCase() !== payment.currency) {
        log.error({ paymentId: payment.id, paid, expected: { amountMinor: payment.amountMinor, currency: payment.currency } }, 'a payment was paid with another amount: not credited');
        return null;
      }
      await complete();
    } else if (kind === 'failed') {
      if (row.status !== 'pending') return null;
      [row] = (await tx
        .update(payments)
        .set({ status: 'failed', failureReason: (event as { reason: string }).reason, settledAt: now() })
        .where(eq(payments.id, row.id))
        .returning()) as [PaymentRow];
      steps.push('failed');
      moved = true;
    }

    const refundedMinor = 'refundedMinor' in event ? Math.min(event.refundedMinor, payment.amountMinor) : 0;
    if (refundedMinor > row.refundedMinor) {
      // A refund means it was paid, even when the success was never heard (or is yet to arrive).
      await complete();
      const target = tokensFor(row, refundedMinor);
      const { unrecovered } = await ledger.takeBack(
        row.userId,
        { type: 'top_up', reference: `refund:${row.id}:${target}`, reverses: { type: 'top_up', reference: `payment:${row.id}` } },
        target - row.refundedTokens,
        tx,
      );
      if (unrecovered > 0) log.warn({ paymentId: row.id, unrecovered }, 'a refund could not take back every token: the balance had been spent');
      [row] = (await tx
        .update(payments)
        .set({ refundedMinor, refundedTokens: target, unrecoveredTokens: sql`${payments.unrecoveredTokens} + ${unrecovered}` })
        .where(eq(payments.id, row.id))
        .returning()) as [PaymentRow];
      steps.push('refunded');
      moved = true;
    }
    return moved ? row : null;
  };

  /** A dispute of a top-up: its tokens taken back while open or lost, given back if won (see disputes.ts). */
  const dispute = async (tx: Database, payment: PaymentRow, providerName: ProviderName, event: Extract<ReversalEvent, { kind: 'disputed' }>, call: Call): Promise<PaymentRow | null> => {
    let row = payment;
    if (row.status === 'pending') {
      // Disputed means it was paid, even when the success was never heard.
      [row] = (await tx.update(payments).set({ status: 'completed', failureReason: null, settledAt: now() }).where(eq(payments.id, row.id)).returning()) as [PaymentRow];
      await ledger.creditTopUp(row.userId, row.id, row.tokens, tx);
      call.steps.push('completed');
    }
    if (row.status !== 'completed') return null;
    const target: PaidTarget = {
      kind: 'payment',
      id: row.id,
      userId: row.userId,
      tokens: row.tokens,
      amountMinor: row.amountMinor,
      currency: row.currency,
      refunded: { minor: row.refundedMinor, tokens: row.refundedTokens },
      credit: { type: 'top_up', reference: `payment:${row.id}` },
    };
    const disputed = await applyDispute(tx, ledger, providerName, event, target);
    if (disputed) call.steps.push('disputed');
    return disputed || row !== payment ? row : null;
  };

  /** Asks the provider about one pending payment and settles it by the answer. */
  const ask = async (payment: PaymentRow, callLog?: FastifyBaseLogger): Promise<PaymentRow> => {
    const provider = providerNamed(providers, payment.provider);
    if (!provider || !payment.providerPaymentId) return payment;
    return settleRemote(payment, await provider.retrieve(payment.providerPaymentId), callLog);
  };

  /** Settles a payment by what its provider says of it, in one transaction. */
  const settleRemote = async (payment: PaymentRow, remote: RemotePayment, callLog?: FastifyBaseLogger): Promise<PaymentRow> => {
    let changed: PaymentRow | null = null;
    const call = callOf(callLog);
    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
      if (!locked) return;
      changed = await settle(tx, locked, { ...remote.state, refundedMinor: remote.refundedMinor }, call);
    });
    told(payment.provider, call);
    const settled = changed as PaymentRow | null;
    if (settled) options.walletChanged(settled.userId);
    return settled ?? (await findPayment(payment.id)) ?? payment;
  };

  const findPayment = async (id: string) => {
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    return row;
  };

  return {
    methods,

    /** Creates a pending payment and its checkout; answers where to send the seller. */
    async startTopUp(userId: string, request: TopUpRequest, context: { locale: string; email?: string; log?: FastifyBaseLogger }) {
      const callLog = context.log ?? log;
      const { pack, method, provider, currency, amountMinor } = resolveRequest(request);
      const [payment] = await db
        .insert(payments)
        .values({
          userId,
          provider: provider.name,
          method,
          tokens: pack.tokens,
          priceUsdCents: Math.round(pack.usd * 100),
          amountMinor,
          currency,
          checkAt: new Date(now().getTime() + FIRST_CHECK_MS),
        })
        .returning();
      if (!payment) throw new Error('the payment was not stored');
      let checkout;
      try {
        checkout = await provider.createCheckout({
          paymentId: payment.id,
          userId,
          tokens: pack.tokens,
          amountMinor,
          currency,
          method,
          description: `SoleStudio: ${pack.tokens} tokens`,
          ...returnUrls(payment.id, request.payment_provider),
          locale: context.locale,
          email: context.email,
        });
      } catch (error) {
        // Nothing was paid: the seller never saw the provider's page. The payment ends failed.
        await db.update(payments).set({ status: 'failed', settledAt: now() }).where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
        stepped(provider.name, 'checkout_failed');
        if (error instanceof ProviderUnavailable) {
          callLog.warn({ err: error, provider: provider.name }, 'the payment provider is unavailable');
          throw new HttpError(503, 'PAYMENT_UNAVAILABLE', 'PAYMENT_UNAVAILABLE');
        }
        if (error instanceof ProviderRefused) {
          callLog.error({ err: error, provider: provider.name }, 'the payment provider refused a checkout');
          throw new HttpError(502, 'PAYMENT_REFUSED', 'PAYMENT_REFUSED');
        }
        throw error;
      }
      await db
        .update(payments)
        .set({ providerPaymentId: checkout.providerPaymentId, redirectUrl: checkout.redirectUrl })
        .where(eq(payments.id, payment.id));
      stepped(provider.name, 'started');
      return { paymentId: payment.id, redirectUrl: checkout.redirectUrl };
    },

    /**
     * A seller's payment by id (another seller's is not found). While it is pending the provider
     * is asked, at most every few seconds, so a seller back from its page sees the result even
     * before the notification arrives.
     */
    async statusOf(userId: string, paymentId: string, callLog: FastifyBaseLogger = log): Promise<PaymentRow | undefined> {
      const [row] = await db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.userId, userId)));
      if (!row || row.status !== 'pending' || !row.providerPaymentId) return row;
      const at = now().getTime();
      if (at - (lastAsked.get(row.id) ?? 0) < STATUS_ASK_MS) return row;
      lastAsked.set(row.id, at);
      if (lastAsked.size > 10_000) lastAsked.clear();
      try {
        return await ask(row, callLog);
      } catch (error) {
        callLog.warn({ err: error, paymentId: row.id }, 'asking the provider about a payment failed');
        return row;
      }
    },

    /** Applies one verified event of a provider's notification to its payment; true when it changed anything. */
    apply,

    /**
     * Asks the providers about payments left pending whose time to check has come (a
     * notification that never arrives must not lose a paid top-up); gives up on ones pending for
     * a week. Safe on any number of nodes at once. Returns how many were asked.
     */
    async reconcile(at: Date = now()): Promise<number> {
      const due = await db
        .update(payments)
        .set({
          checks: sql`${payments.checks} + 1`,
          checkAt: sql`${at.toISOString()}::timestamptz + least(${LONGEST_CHECK_MS}, ${FIRST_CHECK_MS} * power(2, ${payments.checks})) * interval '1 millisecond'`,
        })
        .where(
          sql`${payments.id} IN (${db
            .select({ id: payments.id })
            .from(payments)
            .where(and(eq(payments.status, 'pending'), lte(payments.checkAt, at)))
            .orderBy(asc(payments.checkAt))
            .limit(100)
            .for('update', { skipLocked: true })})`,
        )
        .returning();
      for (const payment of due) {
        try {
          let settled = payment.providerPaymentId ? await ask(payment) : payment;
          const provider = providerNamed(providers, payment.provider);
          if (settled.status === 'pending' && at.getTime() - settled.createdAt.getTime() > GIVE_UP_MS && provider?.closeCheckout && settled.providerPaymentId) {
            // Given up only once its page can no longer take the money: closed at the provider,
            // and settled by what the provider then says (it may have been paid at the last moment).
            const remote = await provider.closeCheckout(settled.providerPaymentId);
            settled = await settleRemote(settled, remote);
          }
          if (settled.status === 'pending' && at.getTime() - settled.createdAt.getTime() > GIVE_UP_MS) {
            const expired = await db
              .update(payments)
              .set({ status: 'failed', failureReason: 'expired', settledAt: at })
              .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
              .returning({ id: payments.id });
            if (expired.length > 0) stepped(payment.provider, 'failed');
          }
        } catch (error) {
          log.warn({ err: error, paymentId: payment.id }, 'reconciling a payment failed; it is asked about again later');
        }
      }
      return due.length;
    },
  };
}
