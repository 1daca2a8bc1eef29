// The publisher's tables: a seller's connected stores. Kept apart from schema.ts, which holds the
// rest of the product; drizzle.config.ts reads both.
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { PLATFORMS } from '../../contract/publisher';
import { users } from './schema';

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
    check('store_connections_platform_known', sql.raw(`"platform" IN (${PLATFORMS.map((p) => `'${p}'`).join(', ')})`)),
    check('store_connections_status_known', sql`${t.status} IN ('active', 'invalid')`),
  ],
);
