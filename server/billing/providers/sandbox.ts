// The payment sandbox: the embedded default for both the card and the local provider when no keys
// are set, so `npm start` shows the whole top-up with no money moving. It behaves like a hosted
// provider: a checkout page of its own (served by pages.ts), its own books (sandbox_checkouts),
// and signed notifications to our webhook that arrive after the seller is sent back, and twice.
// What an operator does from a provider's dashboard — refund, or see a seller's bank dispute a
// payment and decide it — is done through its methods (tests, and trying it by hand).
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sandboxCheckouts, sandboxMethods } from '../../db/schema';
import {
  NotificationRejected,
  ProviderRefused,
  type FailureReason,
  type Notification,
  type MandateBilling,
  type PaymentProvider,
  type ProviderEvent,
  type RemoteCharge,
  type RemoteMandate,
  type RemotePayment,
} from '../provider';
import { PAYMENT_METHODS } from '../../../contract/billing';

export type SandboxCheckout = typeof sandboxCheckouts.$inferSelect;

/** The sandbox's notification body. */
interface SandboxEvent {
  id: string;
  type: 'payment.succeeded' | 'payment.failed' | 'payment.refunded' | 'charge.refunded' | 'dispute.updated' | 'mandate.active' | 'mandate.failed' | 'method.revoked';
  created: number;
  data: {
    checkout_id: string;
    payment_id: string;
    amount_minor: number;
    currency: string;
    reason?: FailureReason;
    refunded_minor?: number;
    method_id?: string;
    dispute_id?: string;
    dispute_status?: DisputeStatus;
    /** What the disputed checkout paid for: a top-up (payment) or a renewal (charge). */
    disputed?: 'payment' | 'charge';
  };
}

/** Where a dispute stands: the money held back from the shop, then returned to it (won) or kept by the seller's bank (lost). */
export type DisputeStatus = 'open' | 'won' | 'lost';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
/** A notification signed longer ago than this is refused (a replay). */
const SIGNATURE_TOLERANCE_S = 300;

export interface SandboxOptions {
  db: Database;
  /** The key notifications are signed with (shared by every node). */
  secret: Uint8Array;
  /** Where a checkout's page is: `${pagesUrl}/${id}`. */
  pagesUrl: string;
  /** Sends a signed notification to our webhook; resolves with the HTTP status it was answered. */
  deliver(notification: { body: string; headers: Record<string, string> }): Promise<number>;
  /** Milliseconds before the first delivery and before its repeat (a provider is late, and says things twice). */
  deliveryDelaysMs?: readonly number[];
  now?: () => Date;
}

export interface Sandbox extends PaymentProvider {
  readonly mandates: MandateBilling;
  /** The seller withdrew a saved method (from their bank or wallet app): renewals are refused. */
  revokeMethod(methodId: string): Promise<boolean>;
  /** Makes a saved method refuse (or again accept) charges, as a card with no money would. */
  setMethodDeclines(methodId: string, declines: boolean): Promise<boolean>;
  /** A checkout as its page shows it. */
  find(id: string): Promise<SandboxCheckout | undefined>;
  /** The seller paid on the page: a card that declines is refused instead. */
  pay(id: string): Promise<SandboxCheckout | undefined>;
  /** The payment was refused (the decline button, a declining test card). */
  decline(id: string): Promise<SandboxCheckout | undefined>;
  /** The seller left the page without paying. */
  cancel(id: string): Promise<SandboxCheckout | undefined>;
  /** Refunds part or all of a paid checkout (a top-up or a renewal charge), as an operator would from a dashboard. */
  refund(id: string, amountMinor?: number): Promise<SandboxCheckout | undefined>;
  /**
   * The seller's bank disputes a paid checkout (a top-up or a renewal charge), or decides the
   * dispute; one dispute per checkout, for what is not refunded. Nothing for a checkout that took
   * no money (unpaid, a mandate, refunded in full).
   */
  dispute(id: string, status: DisputeStatus): Promise<{ disputeId: string; amountMinor: number } | undefined>;
  /** Notifications not yet delivered settle (tests and a clean shutdown). */
  idle(): Promise<void>;
  /** Stops delivering (the server closes). */
  close(): void;
}

function sign(secret: Uint8Array, timestamp: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The sandbox for `name`'s methods (the card provider's or the local provider's). */
export function sandboxProvider(options: SandboxOptions): Sandbox {
  const { db, secret } = options;
  const now = options.now ?? (() => new Date());
  const delays = options.deliveryDelaysMs ?? [800, 2500];
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const find = async (id: string) => {
    const [row] = await db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, id));
    return row;
  };

  const notify = (event: SandboxEvent) => {
    const body = JSON.stringify(event);
    for (const delay of delays) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (closed) return;
        const timestamp = Math.floor(now().getTime() / 1000);
        const headers = { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${sign(secret, timestamp, body)}` };
        const delivery = options
          .deliver({ body, headers })
          .then(() => undefined)
          // An undelivered notification is not lost: reconciliation asks the sandbox itself.
          .catch(() => undefined)
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
      }, delay);
      timer.unref();
      timers.add(timer);
    }
  };

  const eventOf = (row: SandboxCheckout, type: SandboxEvent['type'], extra: Partial<SandboxEvent['data']> = {}): SandboxEvent => ({
    id: `evt_sbx_${crypto.randomUUID().replaceAll('-', '')}`,
    type,
    created: Math.floor(now().getTime() / 1000),
    data: { checkout_id: row.id, payment_id: row.paymentId, amount_minor: row.amountMinor, currency: row.currency, ...extra },
  });

  /** Ends a pending checkout (authorising a mandate saves its method); nothing when it already ended. */
  const end = async (id: string, status: 'succeeded' | 'canceled', reason: FailureReason | null) => {
    const [row] = await db.transaction(async (tx) => {
      const [ended] = await tx
        .update(sandboxCheckouts)
        .set({ status, reason, methodId: sql`CASE WHEN ${sandboxCheckouts.mode} = 'mandate' AND ${status} = 'succeeded' THEN 'pm_sbx_' || substr(${sandboxCheckouts.id}, 5) END` })
        .where(and(eq(sandboxCheckouts.id, id), eq(sandboxCheckouts.status, 'pending')))
        .returning();
      if (ended?.methodId) await tx.insert(sandboxMethods).values({ id: ended.methodId, checkoutId: ended.id, method: ended.method });
      return [ended];
    });
    if (row) {
      const mandate = row.mode === 'mandate';
      if (status === 'succeeded') notify(eventOf(row, mandate ? 'mandate.active' : 'payment.succeeded', mandate ? { method_id: row.methodId ?? undefined } : {}));
      else notify(eventOf(row, mandate ? 'mandate.failed' : 'payment.failed', { reason: reason ?? 'declined' }));
    }
    return row ?? (await find(id));
  };

  const mandateOf = async (row: SandboxCheckout): Promise<RemoteMandate> => {
    const saved = row.methodId ? (await db.select().from(sandboxMethods).where(eq(sandboxMethods.id, row.methodId)))[0] : undefined;
    const status = row.status === 'pending' ? 'pending' : row.status === 'canceled' ? 'failed' : saved?.status === 'revoked' ? 'revoked' : 'active';
    return {
      providerMandateId: row.id,
      mandateId: row.paymentId,
      status,
      providerMethodId: row.methodId,
      ...(row.status === 'canceled' ? { reason: (row.reason as FailureReason | null) ?? 'canceled' } : {}),
    };
  };

  /** Whether the method a charge used was withdrawn since. */
  const revoked = async (row: SandboxCheckout) => {
    const [saved] = row.methodId ? await db.select().from(sandboxMethods).where(eq(sandboxMethods.id, row.methodId)) : [];
    return saved?.status === 'revoked';
  };

  const chargeOf = (row: SandboxCheckout, revoked: boolean): RemoteCharge => ({
    providerPaymentId: row.id,
    chargeId: row.paymentId,
    state: stateOf(row),
    revoked,
  });

  const mandates: MandateBilling = {
    async createMandate(request) {
      const id = `sbx_${request.mandateId.replaceAll('-', '')}`;
      await db
        .insert(sandboxCheckouts)
        .values({
          id,
          paymentId: request.mandateId,
          mode: 'mandate',
          method: request.method,
          amountMinor: request.holdMinor,
          currency: request.currency,
          description: request.description,
          successUrl: request.returnUrl,
          cancelUrl: request.cancelUrl,
          locale: request.locale,
        })
        .onConflictDoNothing();
      return { providerPaymentId: id, redirectUrl: `${options.pagesUrl}/${id}` };
    },

    async retrieveMandate(providerMandateId) {
      const row = await find(providerMandateId);
      if (!row || row.mode !== 'mandate') throw new ProviderRefused(`No such mandate: ${providerMandateId}`, 'not_found');
      return mandateOf(row);
    },

    async charge(request) {
      const id = `sbx_${request.chargeId.replaceAll('-', '')}`;
      const [saved] = await db.select().from(sandboxMethods).where(eq(sandboxMethods.id, request.providerMethodId));
      if (!saved) throw new ProviderRefused(`No such payment method: ${request.providerMethodId}`, 'not_found');
      const refused = saved.status === 'revoked' || saved.declines;
      // The answer is final at once, as an autopayment's usually is: no notification follows.
      const [booked] = await db
        .insert(sandboxCheckouts)
        .values({
          id,
          paymentId: request.chargeId,
          mode: 'charge',
          methodId: saved.id,
          method: saved.method,
          amountMinor: request.amountMinor,
          currency: request.currency,
          description: request.description,
          successUrl: '',
          cancelUrl: '',
          locale: 'en',
          status: refused ? 'canceled' : 'succeeded',
          reason: refused ? 'declined' : null,
        })
        .onConflictDoNothing()
        .returning();
      // A repeat under the same charge answers the charge already booked.
      const row = booked ?? (await find(id))!;
      return chargeOf(row, saved.status === 'revoked');
    },

    async retrieveCharge(providerPaymentId) {
      const row = await find(providerPaymentId);
      if (!row || row.mode !== 'charge') throw new ProviderRefused(`No such charge: ${providerPaymentId}`, 'not_found');
      return chargeOf(row, await revoked(row));
    },

    async findCharge(chargeId) {
      // The sandbox's books name every charge by ours: no time window is needed to find one.
      const [row] = await db
        .select()
        .from(sandboxCheckouts)
        .where(and(eq(sandboxCheckouts.paymentId, chargeId), eq(sandboxCheckouts.mode, 'charge')));
      return row ? chargeOf(row, await revoked(row)) : null;
    },

    async closeMandate(providerMandateId) {
      const row = await find(providerMandateId);
      if (!row || row.mode !== 'mandate') throw new ProviderRefused(`No such mandate: ${providerMandateId}`, 'not_found');
      // As the seller leaving its page would: a pending checkout is cancelled, an authorised one stays.
      return mandateOf((await end(row.id, 'canceled', 'canceled')) ?? row);
    },
  };

  const stateOf = (row: SandboxCheckout): RemotePayment['state'] => {
    if (row.status === 'succeeded') return { status: 'succeeded', amountMinor: row.amountMinor, currency: row.currency };
    if (row.status === 'canceled') return { status: 'failed', reason: (row.reason as FailureReason | null) ?? 'canceled' };
    return { status: 'pending' };
  };

  return {
    name: 'sandbox',
    live: false,
    methods: PAYMENT_METHODS,

    async createCheckout(request) {
      const id = `sbx_${request.paymentId.replaceAll('-', '')}`;
      // Idempotent per payment, as a provider is per idempotency key.
      await db
        .insert(sandboxCheckouts)
        .values({
          id,
          paymentId: request.paymentId,
          method: request.method,
          amountMinor: request.amountMinor,
          currency: request.currency,
          description: request.description,
          successUrl: request.successUrl,
          cancelUrl: request.cancelUrl,
          locale: request.locale,
        })
        .onConflictDoNothing();
      return { providerPaymentId: id, redirectUrl: `${options.pagesUrl}/${id}` };
    },

    async closeCheckout(providerPaymentId) {
      // As the seller leaving its page would: a pending checkout is cancelled, a paid one stays paid.
      await end(providerPaymentId, 'canceled', 'expired');
      return this.retrieve(providerPaymentId);
    },

    async retrieve(providerPaymentId) {
      const row = await find(providerPaymentId);
      if (!row) throw new ProviderRefused(`No such checkout: ${providerPaymentId}`, 'not_found');
      return { providerPaymentId: row.id, paymentId: row.paymentId, state: stateOf(row), refundedMinor: row.refundedMinor };
    },

    async parseNotification(notification: Notification): Promise<ProviderEvent[]> {
      const header = notification.headers[SANDBOX_SIGNATURE_HEADER];
      const parts = new Map(
        String(header ?? '')
          .split(',')
          .map((part) => part.split('=', 2) as [string, string]),
      );
      const timestamp = Number(parts.get('t'));
      const signature = parts.get('v1') ?? '';
      const body = notification.body.toString('utf8');
      const expected = Number.isFinite(timestamp) ? sign(secret, timestamp, body) : '';
      if (!expected || signature.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
        throw new NotificationRejected('the signature does not match');
      }
      if (Math.abs(now().getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_S) throw new NotificationRejected('the signature is too old');
      let event: SandboxEvent;
      try {
        event = JSON.parse(body) as SandboxEvent;
      } catch {
        throw new NotificationRejected('the body is not JSON');
      }
      const { data } = event;
      const common = { eventId: event.id, providerPaymentId: data.checkout_id, paymentId: data.payment_id };
      switch (event.type) {
        case 'payment.succeeded':
          return [{ kind: 'succeeded', ...common, amountMinor: data.amount_minor, currency: data.currency }];
        case 'payment.failed':
          return [{ kind: 'failed', ...common, reason: data.reason ?? 'declined' }];
        case 'payment.refunded':
          return [{ kind: 'refunded', ...common, refundedMinor: data.refunded_minor ?? 0 }];
        case 'charge.refunded':
          return [{ kind: 'charge_refunded', eventId: event.id, providerPaymentId: data.checkout_id, refundedMinor: data.refunded_minor ?? 0 }];
        case 'dispute.updated':
          if (!data.dispute_id || !data.dispute_status || !data.disputed) return [];
          return [
            {
              kind: 'disputed',
              eventId: event.id,
              disputeId: data.dispute_id,
              on: data.disputed,
              providerPaymentId: data.checkout_id,
              status: data.dispute_status,
              amountMinor: data.amount_minor,
              currency: data.currency,
            },
          ];
        case 'mandate.active':
        case 'mandate.failed':
          // Only what the sandbox's books say now is trusted (an active mandate may since be revoked).
          return [{ kind: 'mandate', eventId: event.id, mandate: await mandates.retrieveMandate(data.checkout_id) }];
        case 'method.revoked':
          return data.method_id ? [{ kind: 'method_revoked', eventId: event.id, providerMethodId: data.method_id }] : [];
        default:
          return [];
      }
    },

    mandates,

    async revokeMethod(methodId) {
      const [saved] = await db
        .update(sandboxMethods)
        .set({ status: 'revoked' })
        .where(and(eq(sandboxMethods.id, methodId), eq(sandboxMethods.status, 'active')))
        .returning();
      const checkout = saved ? await find(saved.checkoutId) : undefined;
      if (checkout) notify(eventOf(checkout, 'method.revoked', { method_id: methodId }));
      return Boolean(saved);
    },

    async setMethodDeclines(methodId, declines) {
      const updated = await db.update(sandboxMethods).set({ declines }).where(eq(sandboxMethods.id, methodId)).returning();
      return updated.length > 0;
    },

    find,
    pay: (id) => end(id, 'succeeded', null),
    decline: (id) => end(id, 'canceled', 'declined'),
    cancel: (id) => end(id, 'canceled', 'canceled'),

    async refund(id, amountMinor) {
      const [row] = await db
        .update(sandboxCheckouts)
        .set({ refundedMinor: sql`least(${sandboxCheckouts.amountMinor}, ${sandboxCheckouts.refundedMinor} + ${amountMinor ?? sql`${sandboxCheckouts.amountMinor}`})` })
        .where(and(eq(sandboxCheckouts.id, id), eq(sandboxCheckouts.status, 'succeeded')))
        .returning();
      if (row) notify(eventOf(row, row.mode === 'charge' ? 'charge.refunded' : 'payment.refunded', { refunded_minor: row.refundedMinor }));
      return row;
    },

    async dispute(id, status) {
      const row = await find(id);
      if (!row || row.status !== 'succeeded' || row.mode === 'mandate') return undefined;
      const amountMinor = row.amountMinor - row.refundedMinor;
      if (amountMinor <= 0) return undefined;
      // A charge is disputed once: the dispute is named by its checkout, whatever it comes to.
      const disputeId = `dp_${row.id}`;
      notify(eventOf(row, 'dispute.updated', { amount_minor: amountMinor, dispute_id: disputeId, dispute_status: status, disputed: row.mode === 'charge' ? 'charge' : 'payment' }));
      return { disputeId, amountMinor };
    },

    async idle() {
      while (timers.size > 0 || inFlight.size > 0) {
        await Promise.all(inFlight);
        if (timers.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },

    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
