// A seller's connected stores: kept only after the platform accepted the keys, the keys sealed
// for their own row, and shown with nothing of the keys but their last four characters.
import crypto from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { Connection, ConnectRequest, Platform } from '../../contract/publisher';
import type { Database } from '../db/client';
import { storeConnections } from '../db/schema-publisher';
import { lastFour, open, seal, type SecretsKey } from './secrets';
import type { StoreAccount } from './platforms/store';

type Row = typeof storeConnections.$inferSelect;

/** The keys a connection keeps: the request without its platform. */
export type StoreKeys<P extends Platform = Platform> = Omit<Extract<ConnectRequest, { platform: P }>, 'platform'>;

/** What sealing binds a connection's keys to: its row, its seller, its platform. */
const binding = (row: Pick<Row, 'id' | 'userId' | 'platform'>) => `${row.id}|${row.userId}|${row.platform}`;

/** The key whose last four characters a connection shows: the one a seller would recognise. */
function mainKey(request: ConnectRequest): string {
  switch (request.platform) {
    case 'wildberries':
      return request.token;
    case 'ozon':
      return request.api_key;
    case 'amazon':
      return request.refresh_token;
    case 'demo':
      return 'demo';
  }
}

export function present(row: Row): Connection {
  return {
    id: row.id,
    platform: row.platform as Platform,
    account_id: row.accountId,
    account_name: row.accountName,
    key_hint: row.keyHint,
    expires_at: row.expiresAt?.toISOString() ?? null,
    status: row.status as Connection['status'],
    created_at: row.createdAt.toISOString(),
  };
}

export function storeConnectionsOf(db: Database, secrets: SecretsKey) {
  return {
    /**
     * Keeps keys the platform accepted for `account`. The same seller, platform and account again
     * replaces the keys on the same row (its id, and anything that refers to it, stays).
     */
    async keep(userId: string, request: ConnectRequest, account: StoreAccount): Promise<Connection> {
      const { platform, ...keys } = request;
      const text = JSON.stringify(keys);
      const fields = { accountName: account.accountName, keyHint: lastFour(mainKey(request)), expiresAt: account.expiresAt, status: 'active', checkedAt: new Date() };
      const id = crypto.randomUUID();
      const [made] = await db
        .insert(storeConnections)
        .values({ id, userId, platform, accountId: account.accountId, sealedKeys: seal(secrets, text, binding({ id, userId, platform })), ...fields })
        .onConflictDoNothing()
        .returning();
      if (made) return present(made);
      const [existing] = await db
        .select({ id: storeConnections.id })
        .from(storeConnections)
        .where(and(eq(storeConnections.userId, userId), eq(storeConnections.platform, platform), eq(storeConnections.accountId, account.accountId)));
      if (!existing) throw new Error('a connection conflicted and then could not be found');
      const [updated] = await db
        .update(storeConnections)
        .set({ sealedKeys: seal(secrets, text, binding({ id: existing.id, userId, platform })), ...fields })
        .where(eq(storeConnections.id, existing.id))
        .returning();
      return present(updated!);
    },

    async list(userId: string): Promise<Connection[]> {
      const rows = await db.select().from(storeConnections).where(eq(storeConnections.userId, userId)).orderBy(desc(storeConnections.createdAt));
      return rows.map(present);
    },

    /** The seller's connection with its keys opened; null when it is not theirs or not there. */
    async withKeys(userId: string, id: string): Promise<{ connection: Connection; keys: StoreKeys } | null> {
      const [row] = await db.select().from(storeConnections).where(and(eq(storeConnections.id, id), eq(storeConnections.userId, userId)));
      if (!row) return null;
      return { connection: present(row), keys: JSON.parse(open(secrets, row.sealedKeys, binding(row))) as StoreKeys };
    },

    /** Marks keys the platform has since refused, so the seller sees which store needs new ones. */
    async markInvalid(id: string): Promise<void> {
      await db.update(storeConnections).set({ status: 'invalid', checkedAt: new Date() }).where(eq(storeConnections.id, id));
    },

    /** Deletes the seller's connection and its keys; false when it is not theirs or not there. */
    async remove(userId: string, id: string): Promise<boolean> {
      const gone = await db.delete(storeConnections).where(and(eq(storeConnections.id, id), eq(storeConnections.userId, userId))).returning({ id: storeConnections.id });
      return gone.length > 0;
    },
  };
}
export type StoreConnections = ReturnType<typeof storeConnectionsOf>;
