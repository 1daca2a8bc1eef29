// The publisher's tables: a seller's connected stores and what was published to them. Kept apart
// from schema.ts, which holds the rest of the product (and which this file only reads from);
// drizzle.config.ts reads both.
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { PLATFORMS, PUBLICATION_ITEM_STATUSES, PUBLICATION_STATUSES } from '../../contract/publisher';
import { assets, jobs, users } from './schema';

const known = (name: string, column: string, values: readonly string[]) => check(name, sql.raw(`"${column}" IN (${values.map((v) => `'${v}'`).join(', ')})`));

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A store a seller connected: the platform, the account the keys open (its id and name as the
 * platform answers them), the keys sealed (publisher/secrets.ts), the last four characters of the
 * main one, and when the platform says they expire. One row per seller, platform and account: a
 * seller who pastes new keys for the same account replaces the old ones.
 */
export const storeConnections = pgTable(
  'store_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    accountId: text('account_id').notNull(),
    accountName: text('account_name').notNull(),
    /** AES-256-GCM, the connection's id, seller and platform as associated data. */
    sealedKeys: text('sealed_keys').notNull(),
    keyHint: text('key_hint').notNull(),
    expiresAt: at('expires_at'),
    /** `active`, or `invalid` once the platform refused the keys after they were kept. */
    status: text('status').notNull().default('active'),
    checkedAt: at('checked_at').notNull().defaultNow(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('store_connections_account_key').on(t.userId, t.platform, t.accountId),
    index('store_connections_user_idx').on(t.userId, t.createdAt),
    known('store_connections_platform_known', 'platform', PLATFORMS),
    check('store_connections_status_known', sql`${t.status} IN ('active', 'invalid')`),
  ],
);

/**
 * Results sent to one product card of a connected store: where they go (the main picture, or the
 * gallery, added to or replacing what is there), the job that sends them, and how it ended. The
 * seller's Idempotency-Key names it: the same request again is the same publication.
 */
export const publications = pgTable(
  'publications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Kept when the store is disconnected later: what was published stays in the seller's list. */
    connectionId: uuid('connection_id').references(() => storeConnections.id, { onDelete: 'set null' }),
    platform: text('platform').notNull(),
    productId: text('product_id').notNull(),
    productArticle: text('product_article').notNull(),
    productTitle: text('product_title').notNull(),
    /** `main`: the first picture becomes the card's main one; `gallery`: the pictures follow the others. */
    placement: text('placement').notNull(),
    /** `append` keeps the card's media; `replace` puts these in their place. */
    mode: text('mode').notNull(),
    status: text('status').notNull().default('queued'),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The request's fingerprint: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    /** What was sent, as the platform's step keeps it (Ozon's list and import task, JSON), so a second run asks about it rather than sending anew. */
    remoteTask: text('remote_task'),
    /** Why the whole publication failed, in the seller's language or the platform's words. */
    message: text('message'),
    /** The seller's language when they asked: what the job's own messages are written in. */
    locale: text('locale').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    uniqueIndex('publications_idempotency_key').on(t.userId, t.idempotencyKey),
    index('publications_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('publications_job_key').on(t.jobId),
    known('publications_platform_known', 'platform', PLATFORMS),
    known('publications_status_known', 'status', PUBLICATION_STATUSES),
    check('publications_placement_known', sql`${t.placement} IN ('main', 'gallery')`),
    check('publications_mode_known', sql`${t.mode} IN ('append', 'replace')`),
  ],
);

/** One result of a publication, in the order it goes on the card: pending → sent → applied | failed. */
export const publicationItems = pgTable(
  'publication_items',
  {
    publicationId: uuid('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    assetId: uuid('asset_id').references(() => assets.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('pending'),
    /** Where on the card the job puts it (a photo number), fixed before it is first sent, so sending it again replaces itself. */
    slot: integer('slot'),
    /** The platform's words for a refusal, or ours for a picture its rules refuse before sending. */
    message: text('message'),
    /** Where the platform shows it once applied. */
    remoteUrl: text('remote_url'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.publicationId, t.position] }),
    known('publication_items_status_known', 'status', PUBLICATION_ITEM_STATUSES),
    check('publication_items_kind_known', sql`${t.kind} IN ('image', 'video')`),
  ],
);

/**
 * A product card of the demo store this server plays (DEMO_STORE): a seller who connects it gets
 * a few cards to try publishing on, with no marketplace keys. Its media are the card's own copies
 * in storage, pictures in order and then at most one video, as JSON `[{kind, key}]`.
 */
export const demoStoreCards = pgTable(
  'demo_store_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    article: text('article').notNull(),
    title: text('title').notNull(),
    media: text('media').notNull().default('[]'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('demo_store_cards_user_idx').on(t.userId, t.createdAt)],
);
