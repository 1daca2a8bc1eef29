// The database schema (Drizzle). Migrations in ./migrations are generated from this file with
// `npm run db:generate` and applied at start-up, on PGlite and on PostgreSQL alike.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { LEDGER_TYPES, MANDATE_STATUSES, PAYMENT_STATUSES, SUBSCRIPTION_STATUSES } from '../../contract/billing';

/**
 * Request counters of the rate limiter. Kept in the database so every API node behind a load
 * balancer counts against the same window.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  /** Unix time in milliseconds when the current window began. */
  windowStartMs: bigint('window_start_ms', { mode: 'number' }).notNull(),
});

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A seller's account. E-mail is stored lower-cased; usernames are unique ignoring case. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: at('email_verified_at'),
    /** How the seller heard of SoleStudio: `{ key, extra }` (SPEC §3). */
    channel: jsonb('channel').$type<{ key: string; extra: string }>().notNull(),
    phone: text('phone'),
    contactPerson: text('contact_person'),
    storeCount: integer('store_count'),
    area: text('area'),
    /** The language mail is written in: the one the seller registered in. */
    locale: text('locale').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
  ],
);

/** A signed-in device. The bearer token names one row; revoking the row ends the session. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rememberMe: boolean('remember_me').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    lastUsedAt: at('last_used_at').notNull().defaultNow(),
    userAgent: text('user_agent'),
    ...timestamps,
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Links sent to confirm an e-mail address: only a hash of the token is kept. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    ...timestamps,
  },
  (t) => [index('email_verifications_user_idx').on(t.userId)],
);

/** 6-digit password reset codes: hashed, single use, a short life and a few tries. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Set when the code was used for a reset, replaced by a newer code, or tried too often. */
    voidedAt: at('voided_at'),
    ...timestamps,
  },
  (t) => [index('password_reset_codes_user_idx').on(t.userId)],
);


/**
 * The token ledger: append-only, the truth about every balance. `reference` names what the
 * entry is for (a user, a task, a payment event); one entry per type and reference.
 */
export const ledger = pgTable(
  'ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: LEDGER_TYPES }).notNull(),
    amount: integer('amount').notNull(),
    reference: text('reference').notNull(),
    /** When a credit's tokens lapse (a subscription period's end); null when they never do. */
    expiresAt: at('expires_at'),
    /**
     * The entry this one undoes, in part or whole: a refunded output's task charge, a refunded or
     * disputed payment's credit, a won dispute's take-back. The ledger's trigger gives tokens
     * back into the lots the undone entry spent (with their expiry), and takes a credit's tokens
     * back from that credit's own lot first.
     */
    reversesId: bigint('reverses_id', { mode: 'number' }).references((): AnyPgColumn => ledger.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('ledger_type_reference_key').on(t.type, t.reference),
    index('ledger_user_idx').on(t.userId, t.createdAt),
    check('ledger_type_known', sql.raw(`"type" IN (${LEDGER_TYPES.map((type) => `'${type}'`).join(', ')})`)),
  ],
);

/** The balance the ledger adds up to, kept in the same transaction as every entry. */
export const wallets = pgTable(
  'wallets',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    totalTokens: integer('total_tokens').notNull().default(0),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [check('wallets_total_tokens_nonnegative', sql`${t.totalTokens} >= 0`)],
);

/**
 * What is left of each credit (DESIGN §4 Tokens): a lot per positive ledger entry, kept by the
 * ledger's trigger, which spends the lots that lapse first whenever tokens are taken. The lots'
 * `remaining` always add up to the wallet; the expiry job lapses what is left of a lot at its
 * `expires_at` with an `expiry` entry. `entry_id` is null only for the balances lots began with.
 */
export const tokenLots = pgTable(
  'token_lots',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    entryId: bigint('entry_id', { mode: 'number' }).references(() => ledger.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    remaining: integer('remaining').notNull(),
    expiresAt: at('expires_at'),
    /** When the expiry job lapsed what was left of it: nothing is ever given back into it after. */
    lapsedAt: at('lapsed_at'),
  },
  (t) => [
    index('token_lots_spend_idx').on(t.userId, t.expiresAt, t.id).where(sql`remaining > 0`),
    index('token_lots_expiry_idx').on(t.expiresAt).where(sql`remaining > 0 AND expires_at IS NOT NULL`),
    check('token_lots_remaining_range', sql`${t.remaining} >= 0 AND ${t.remaining} <= ${t.amount}`),
  ],
);

/**
 * What each entry that took tokens spent of each lot, and how much of that was given back since:
 * a refund puts tokens back where they came from, with the lot's expiry, never as new tokens.
 */
export const lotSpends = pgTable(
  'lot_spends',
  {
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => ledger.id, { onDelete: 'cascade' }),
    lotId: bigint('lot_id', { mode: 'number' })
      .notNull()
      .references(() => tokenLots.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    restored: integer('restored').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.entryId, t.lotId] }),
    index('lot_spends_lot_idx').on(t.lotId),
    check('lot_spends_restored_range', sql`${t.restored} >= 0 AND ${t.restored} <= ${t.amount}`),
  ],
);

/**
 * Short leases that make one thing happen at a time across every node without holding a
 * connection while a provider is called: a seller's checkout, a subscription's upgrade.
 */
export const billingLocks = pgTable('billing_locks', {
  key: text('key').primaryKey(),
  holder: uuid('holder').notNull(),
  until: at('until').notNull(),
});

/**
 * A dispute (a chargeback) the seller's bank opened on a top-up or a subscription charge: its
 * tokens are taken back while it is open or lost and given back if it is won, once each, in
 * whatever order the provider's notifications arrive.
 */
export const paymentDisputes = pgTable(
  'payment_disputes',
  {
    provider: text('provider').notNull(),
    disputeId: text('dispute_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** payment (a top-up) or charge (a subscription period). */
    target: text('target').notNull(),
    /** Our payment's or subscription charge's id. */
    targetId: uuid('target_id').notNull(),
    status: text('status').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** Tokens taken back while it was open or once lost, and what the balance could not cover. */
    takenTokens: integer('taken_tokens').notNull().default(0),
    unrecoveredTokens: integer('unrecovered_tokens').notNull().default(0),
    ...timestamps,
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.disputeId] }), check('payment_disputes_status_known', sql`${t.status} IN ('open', 'won', 'lost')`)],
);

/** Messages from the feedback page; tied to the seller when signed in. */
export const feedback = pgTable('feedback', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  content: text('content').notNull(),
  locale: text('locale').notNull(),
  ...timestamps,
});

/** Secrets the server generates once and every API node shares (the token signing key). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  ...timestamps,
});

export const MATERIAL_STATUSES = ['pending', 'uploaded', 'rejected'] as const;
export type MaterialStatus = (typeof MATERIAL_STATUSES)[number];

/**
 * A photo a seller uploads (SPEC §3 material). Registered first (pending) under the client's
 * Idempotency-Key, then its bytes arrive at the storage URL, are checked and cleaned, and it
 * becomes uploaded, or rejected with the reason.
 */
export const materials = pgTable(
  'materials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').notNull(),
    /** The size the client declared; the stored object's size is `byteSize`. */
    fileSize: integer('file_size').notNull(),
    /** JSON text holding the view, or an edit upload's "image edit" / "image edit (logo)" (SPEC §3). */
    description: text('description').notNull(),
    /** The shoe photo's view; null for an edit upload, which no task takes. */
    view: text('view'),
    storageKey: text('storage_key').notNull(),
    status: text('status', { enum: MATERIAL_STATUSES }).notNull().default('pending'),
    rejection: text('rejection'),
    width: integer('width'),
    height: integer('height'),
    byteSize: integer('byte_size'),
    uploadedAt: at('uploaded_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('materials_user_idempotency_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('materials_storage_key').on(t.storageKey),
    index('materials_user_created_idx').on(t.userId, t.createdAt),
  ],
);

export const TASK_STATUSES = ['pending', 'processing', 'completed', 'partially_completed', 'failed'] as const;
export const FAILURE_TYPES = ['system_error', 'manual_rejection'] as const;

/**
 * A generation task (SPEC §3): what the seller asked for, from which photos, what it cost and
 * how it ended. Created with its outputs, its debit and its job in one statement, once per
 * Idempotency-Key.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('pending'),
    failureType: text('failure_type', { enum: FAILURE_TYPES }),
    /** The content_config entries as submitted. */
    contentConfig: jsonb('content_config').$type<unknown[]>().notNull(),
    /** Later edits of entries, merged into the config by name when read. */
    configHistory: jsonb('config_history').$type<unknown[]>().notNull().default([]),
    materialIds: jsonb('material_ids').$type<string[]>().notNull(),
    cost: integer('cost').notNull(),
    /** The language the finished-task e-mail is written in. */
    locale: text('locale').notNull(),
    finishedAt: at('finished_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tasks_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('tasks_user_created_idx').on(t.userId, t.createdAt),
    index('tasks_finished_idx').on(t.finishedAt),
  ],
);

export const OUTPUT_STATUSES = ['pending', 'completed', 'failed'] as const;

/** One planned output of a task: priced when planned, refunded when it fails. */
export const taskOutputs = pgTable(
  'task_outputs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    contentModule: text('content_module').notNull(),
    category: text('category').notNull(),
    background: text('background'),
    creativeScene: text('creative_scene'),
    view: text('view'),
    engine: text('engine').notNull(),
    cost: integer('cost').notNull(),
    status: text('status', { enum: OUTPUT_STATUSES }).notNull().default('pending'),
    error: text('error'),
    ...timestamps,
  },
  (t) => [uniqueIndex('task_outputs_task_position').on(t.taskId, t.position)],
);

/** Why a photo was turned away at intake (SPEC §3 failure detail). */
export const taskFailures = pgTable(
  'task_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    materialId: uuid('material_id').notNull(),
    reason: text('reason').notNull(),
    ...timestamps,
  },
  (t) => [index('task_failures_task_idx').on(t.taskId)],
);

/** A finished result (SPEC §3 generated asset): a stored image or video the seller owns. */
export const assets = pgTable(
  'assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    outputId: uuid('output_id').references(() => taskOutputs.id, { onDelete: 'set null' }),
    contentModule: text('content_module').notNull(),
    category: text('category').notNull(),
    background: text('background'),
    creativeScene: text('creative_scene'),
    storageKey: text('storage_key').notNull(),
    fileType: text('file_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** A video's poster frame (JPEG), shown wherever the video is listed. */
    posterKey: text('poster_key'),
    /** How an edited image was made (SPEC §7 batch-create), as the editor sent it. */
    editMeta: jsonb('edit_meta').$type<Record<string, unknown>>(),
    /** Material history's section: the category, with the multi-angle card among the product shots. */
    section: text('section')
      .notNull()
      .generatedAlwaysAs(sql`CASE WHEN category = 'PRODUCT2' THEN 'PRODUCT' ELSE category END`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('assets_output_key').on(t.outputId),
    // A section's page is a range of this index, newest first.
    index('assets_user_section_idx').on(t.userId, t.section, t.createdAt, t.id),
    index('assets_task_idx').on(t.taskId),
  ],
);

/**
 * How many times each seller's tasks, their outputs, results, photos or ledger entries have
 * changed: moved by triggers on those tables (migrations 0005, 0006 and 0016) and, for a new task,
 * by the statement that inserts it, so any API node can tell whether a list (or the balance) it
 * answered before is still true without reading it.
 */
export const contentVersions = pgTable('content_versions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * Event-stream tickets already used, by their nonce: a ticket opens one stream on whichever API
 * node it reaches. A row is needed only until the ticket expires, and is deleted after.
 */
export const usedEventTickets = pgTable(
  'used_event_tickets',
  {
    nonce: text('nonce').primaryKey(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('used_event_tickets_expires_idx').on(t.expiresAt)],
);

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

/**
 * Background work, claimed with FOR UPDATE SKIP LOCKED by any number of runners. A running job
 * whose lease (`lockedUntil`) ran out belongs to a runner that died and is claimed again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'cascade' }),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(4),
    runAt: at('run_at').notNull().defaultNow(),
    lockedUntil: at('locked_until'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    ...timestamps,
  },
  (t) => [index('jobs_due_idx').on(t.status, t.runAt)],
);


/**
 * A seller's purchase of a token pack (SPEC §3 payment): created pending with the provider's
 * checkout, then completed (and credited, in the same transaction) or failed when the provider
 * says so. Refunds the provider reports take the tokens back.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The provider behind it: sandbox, stripe or yookassa. */
    provider: text('provider').notNull(),
    /** The provider's id of the checkout (a Checkout Session, a payment); set once it exists. */
    providerPaymentId: text('provider_payment_id'),
    method: text('method').notNull(),
    tokens: integer('tokens').notNull(),
    /** The pack's price on the price list, in US cents. */
    priceUsdCents: integer('price_usd_cents').notNull(),
    /** What the provider charges, in minor units of `currency`. */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    failureReason: text('failure_reason'),
    redirectUrl: text('redirect_url'),
    /** Refunded so far by the provider, in minor units, and the tokens that took back. */
    refundedMinor: integer('refunded_minor').notNull().default(0),
    refundedTokens: integer('refunded_tokens').notNull().default(0),
    /** Tokens a refund should have taken back that the balance no longer held. */
    unrecoveredTokens: integer('unrecovered_tokens').notNull().default(0),
    /** When reconciliation asks the provider about it next, while it is pending. */
    checkAt: at('check_at').notNull().defaultNow(),
    checks: integer('checks').notNull().default(0),
    settledAt: at('settled_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_provider_payment_key').on(t.provider, t.providerPaymentId),
    index('payments_user_created_idx').on(t.userId, t.createdAt),
    index('payments_pending_idx').on(t.checkAt).where(sql`status = 'pending'`),
    check('payments_status_known', sql.raw(`"status" IN (${PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ')})`)),
  ],
);

/**
 * Every provider event a payment followed, once: the provider's event id under a unique key,
 * written in the same transaction as what it changed, so a repeated or replayed notification
 * changes nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index('payment_events_payment_idx').on(t.paymentId)],
);

/**
 * The embedded payment sandbox's own books (DESIGN §2: the default provider when no keys are
 * set): checkouts as a provider would keep them, apart from our payments, so reconciliation asks
 * it the way it asks a real provider. No money moves.
 */
export const sandboxCheckouts = pgTable('sandbox_checkouts', {
  id: text('id').primaryKey(),
  /** Ours: the payment, the mandate or the subscription charge it is for (by `mode`). */
  paymentId: uuid('payment_id').notNull(),
  /** payment (a one-off checkout), mandate (authorising a saved method) or charge (charging one). */
  mode: text('mode').notNull().default('payment'),
  /** The saved method a mandate created or a charge used. */
  methodId: text('method_id'),
  method: text('method').notNull(),
  amountMinor: integer('amount_minor').notNull(),
  currency: text('currency').notNull(),
  description: text('description').notNull(),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  locale: text('locale').notNull(),
  /** pending, succeeded or canceled, as the sandbox sees it. */
  status: text('status').notNull().default('pending'),
  /** Why a canceled checkout ended: declined, canceled or expired. */
  reason: text('reason'),
  refundedMinor: integer('refunded_minor').notNull().default(0),
  ...timestamps,
});

/**
 * The billing details a seller gave the local provider's checkout (SPEC §3 Customer payload),
 * the latest per seller.
 */
export const customers = pgTable('customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  reference: text('reference').notNull(),
  payload: jsonb('payload').notNull(),
  ...timestamps,
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * A payment method a seller authorised us to charge without them (SPEC §3 Mandate): the
 * provider's saved method, used to renew subscriptions. Pending until the seller authorises it on
 * the provider's page; revoked when they withdraw it.
 */
export const mandates = pgTable(
  'mandates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The client-facing provider it was made through: card or localpay. */
    client: text('client').notNull(),
    method: text('method').notNull(),
    status: text('status', { enum: MANDATE_STATUSES }).notNull().default('pending'),
    reference: text('reference').notNull(),
    /** The provider's id of the authorisation (a sandbox checkout, a YooKassa payment). */
    providerMandateId: text('provider_mandate_id'),
    /** The provider's saved payment method, charged for renewals once the mandate is active. */
    providerMethodId: text('provider_method_id'),
    redirectUrl: text('redirect_url'),
    failureReason: text('failure_reason'),
    checkAt: at('check_at').notNull().defaultNow(),
    checks: integer('checks').notNull().default(0),
    ...timestamps,
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mandates_provider_key').on(t.provider, t.providerMandateId),
    uniqueIndex('mandates_user_reference_key').on(t.userId, t.reference),
    index('mandates_user_idx').on(t.userId, t.createdAt),
    index('mandates_pending_idx').on(t.checkAt).where(sql`status = 'pending'`),
    check('mandates_status_known', sql.raw(`"status" IN (${MANDATE_STATUSES.map((s) => `'${s}'`).join(', ')})`)),
  ],
);

/**
 * A seller's subscription to a plan (SPEC §3 Subscription). Billed one of two ways: by a mandate
 * we charge at each period's end (the sandbox, YooKassa), or by the card provider, which renews
 * by itself and tells us (Stripe). One live subscription per seller.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    client: text('client').notNull(),
    /** `mandate` when we renew, `provider` when the provider does. */
    billing: text('billing').notNull(),
    mandateId: uuid('mandate_id').references(() => mandates.id),
    /** The provider's subscription (Stripe) or checkout session it came from. */
    providerSubscriptionId: text('provider_subscription_id'),
    providerCheckoutId: text('provider_checkout_id'),
    reference: text('reference').notNull(),
    planId: integer('plan_id').notNull(),
    interval: text('interval').notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull().default('pending'),
    cancelAt: at('cancel_at'),
    currentPeriodStart: at('current_period_start'),
    currentPeriodEnd: at('current_period_end'),
    /** Failed attempts to renew the current period, and when the next is due. */
    attempts: integer('attempts').notNull().default(0),
    renewAt: at('renew_at'),
    endedAt: at('ended_at'),
    /** When the provider made the state last applied (its events may arrive out of order). */
    providerStateAt: at('provider_state_at'),
    ...timestamps,
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_user_reference_key').on(t.userId, t.reference),
    uniqueIndex('subscriptions_provider_key').on(t.provider, t.providerSubscriptionId),
    uniqueIndex('subscriptions_checkout_key').on(t.provider, t.providerCheckoutId),
    uniqueIndex('subscriptions_one_live_key')
      .on(t.userId)
      .where(sql`status IN ('pending', 'active', 'past_due')`),
    index('subscriptions_renew_idx').on(t.renewAt).where(sql`billing = 'mandate' AND status IN ('active', 'past_due', 'unpaid')`),
    check('subscriptions_status_known', sql.raw(`"status" IN (${SUBSCRIPTION_STATUSES.map((s) => `'${s}'`).join(', ')})`)),
  ],
);

/**
 * Each time a subscription period is paid for (the first, each renewal, an upgrade): charged once
 * per subscription and period start, credited once when paid, its tokens lapsing at the period's
 * end. For the card provider, its invoice.
 */
export const subscriptionCharges = pgTable(
  'subscription_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull(),
    interval: text('interval').notNull(),
    periodStart: at('period_start').notNull(),
    periodEnd: at('period_end').notNull(),
    tokens: integer('tokens').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    providerPaymentId: text('provider_payment_id'),
    failureReason: text('failure_reason'),
    settledAt: at('settled_at'),
    /** mandate: we charged a saved method; invoice: the provider billed it (its invoice is the key). */
    source: text('source').notNull().default('mandate'),
    /** The seller's Idempotency-Key of the upgrade that made it: a repeat answers this charge. */
    requestKey: text('request_key'),
    /** Refunded so far, in minor units, and the tokens that took back (and could not). */
    refundedMinor: integer('refunded_minor').notNull().default(0),
    refundedTokens: integer('refunded_tokens').notNull().default(0),
    unrecoveredTokens: integer('unrecovered_tokens').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    // A period we charge is charged once: a retry after a refusal is a new charge, never a second
    // one that pays. Invoices are keyed by the provider's id: two may start in the same second.
    uniqueIndex('subscription_charges_period_key').on(t.subscriptionId, t.periodStart).where(sql`status <> 'failed' AND source = 'mandate'`),
    uniqueIndex('subscription_charges_request_key').on(t.subscriptionId, t.requestKey),
    uniqueIndex('subscription_charges_provider_key').on(t.providerPaymentId),
    index('subscription_charges_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
  ],
);

/** Every subscription event a provider sent, once (like payment_events). */
export const subscriptionEvents = pgTable(
  'subscription_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * The sandbox's saved payment methods (its side of a mandate): active until revoked; a method
 * set to decline refuses the charges made with it, as a card with no money would.
 */
export const sandboxMethods = pgTable('sandbox_methods', {
  id: text('id').primaryKey(),
  checkoutId: text('checkout_id').notNull(),
  method: text('method').notNull(),
  status: text('status').notNull().default('active'),
  declines: boolean('declines').notNull().default(false),
  ...timestamps,
});
