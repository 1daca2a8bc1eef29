// Request limits for routes that opt in with `config: { rateLimit: { max, timeWindow } }`.
// Counters live in the database so that every API node shares one window per key.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { HttpError } from '../lib/errors';

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Windows longer than this are not supported; their stale rows are pruned. */
const LONGEST_WINDOW_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** Counts one hit against `key` in a fixed window; returns the count so far and the time left. */
export async function countHit(db: Database, key: string, windowMs: number) {
  const now = Date.now();
  const expired = sql`${rateLimitHits.windowStartMs} + ${windowMs} <= ${now}`;
  const [row] = await db
    .insert(rateLimitHits)
    .values({ key, count: 1, windowStartMs: now })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimitHits.count} + 1 END`,
        windowStartMs: sql`CASE WHEN ${expired} THEN ${now} ELSE ${rateLimitHits.windowStartMs} END`,
      },
    })
    .returning({ count: rateLimitHits.count, windowStartMs: rateLimitHits.windowStartMs });
  if (!row) throw new Error('rate limit counter was not written');
  return { count: row.count, ttlMs: row.windowStartMs + windowMs - now };
}

export interface Limit {
  max: number;
  windowMs: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts a hit against a named limit (for keys a route config cannot express, such as an
     * e-mail in the body) and throws 429 once it is over.
     */
    limit(key: string, limit: Limit): Promise<void>;
  }
}

function tooMany(ttlMs: number) {
  return new HttpError(429, 'RATE_LIMITED', 'RATE_LIMITED', { seconds: Math.max(1, Math.ceil(ttlMs / 1000)) });
}

/** A @fastify/rate-limit store backed by the `rate_limit_hits` table. */
export function databaseStore(db: Database) {
  return class DatabaseRateLimitStore {
    constructor(private readonly prefix = '') {}

    incr(key: string, callback: StoreCallback, timeWindow: number) {
      countHit(db, this.prefix + key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        callback,
      );
    }

    read(key: string, callback: StoreCallback, timeWindow: number) {
      const now = Date.now();
      db.select()
        .from(rateLimitHits)
        .where(sql`${rateLimitHits.key} = ${this.prefix + key}`)
        .then(([row]) => {
          if (!row || row.windowStartMs + timeWindow <= now) callback(null, { current: 0, ttl: 0 });
          else callback(null, { current: row.count, ttl: row.windowStartMs + timeWindow - now });
        }, callback);
    }

    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string } }) {
      const method = [routeOptions.routeInfo?.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore(`${method} ${routeOptions.routeInfo?.url ?? ''}|`);
    }
  };
}

export interface RateLimitOptions {
  db: Database;
  disabled: boolean;
}

export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app: FastifyInstance, { db, disabled }) => {
    const options: RateLimitPluginOptions = {
      global: false,
      store: databaseStore(db) as unknown as RateLimitPluginOptions['store'],
      errorResponseBuilder: (_request, context) => tooMany(context.ttl),
      ...(disabled ? { allowList: () => true } : {}),
    };
    await app.register(rateLimit, options);

    app.decorate('limit', async (key: string, { max, windowMs }: Limit) => {
      if (disabled) return;
      const { count, ttlMs } = await countHit(db, `limit|${key}`, windowMs);
      if (count > max) throw tooMany(ttlMs);
    });

    const prune = setInterval(() => {
      db.delete(rateLimitHits)
        .where(lt(rateLimitHits.windowStartMs, Date.now() - LONGEST_WINDOW_MS))
        .catch((error: unknown) => app.log.warn({ err: error }, 'pruning rate limit counters failed'));
    }, PRUNE_EVERY_MS);
    prune.unref();
    app.addHook('onClose', async () => clearInterval(prune));
  },
  { name: 'rate-limit' },
);
