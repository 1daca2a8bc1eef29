// The job that sends a publication (kind `publish`): safe to run again — what was applied is not
// sent again, what was sent is sent to the same place — and ended when every item is applied or
// failed: `done`, `partial` or `failed`. Runs wherever jobs run (the server, or `npm run worker`).
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_LOCALE, isLocale } from '../../contract/locales';
import { MEDIA_RULES, type Platform } from '../../contract/publisher';
import type { PublisherOptions } from '../config/env';
import type { Database } from '../db/client';
import { assets } from '../db/schema';
import { publicationItems, publications } from '../db/schema-publisher';
import type { JobHandler, JobRow } from '../jobs/runner';
import { translate, type MessageKey } from '../lib/i18n';
import type { ObjectStorage } from '../storage/storage';
import { storeConnectionsOf, type StoreKeys } from './connections';
import { PLATFORM_NAMES } from './publications';
import { StoreRefused } from './platforms/store';
import { demoStoreOf } from './platforms/demo';
import { publishToAmazon, type AmazonLayout } from './platforms/amazon-publish';
import { publishToOzon, type OzonSent } from './platforms/ozon-publish';
import { publishToWildberries, type SendItem } from './platforms/wildberries-publish';
import type { SecretsKey } from './secrets';

export interface PublishContext {
  db: Database;
  storage: ObjectStorage;
  options: PublisherOptions;
  /** This server's address, which the links platforms fetch pictures from are made on (unless the bucket's are absolute). */
  publicUrl: string;
  secrets: SecretsKey;
  /** Pauses between reads of a card, and while a platform asks to slow down. */
  wait?: (ms: number) => Promise<void>;
  pollMs?: number;
  applyWithinMs?: number;
  /** A publication ended (announced to the seller's streams, and by mail); `log` is the job's. */
  finished?: (publication: FinishedPublication, log: FastifyBaseLogger) => void;
}

/** A publication as it ended: enough to tell the seller how it went. */
export interface FinishedPublication {
  id: string;
  userId: string;
  platform: Platform;
  productTitle: string;
  productArticle: string;
  status: 'done' | 'partial' | 'failed';
  applied: number;
  failed: number;
  locale: string;
}

/** The largest file a publication reads from storage: a platform's video limit. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** How long a link a platform fetches a picture from stays good: long enough for a slow import. */
const LINK_SECONDS = 24 * 60 * 60;
/** The most pictures each platform keeps on a card. */
const OZON_MAX_IMAGES = 30;
/** A demo card's id: anything else names no card (and could not be compared with one). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MESSAGE_KEYS = new Set<string>(['PUBLISH_ASSET_GONE', 'PUBLISH_STORE_GONE', 'PUBLISH_CARD_MISSING', 'PUBLISH_NOT_APPLIED']);

export function publishHandler(context: PublishContext): JobHandler {
  const { db } = context;
  const wait = context.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const connections = storeConnectionsOf(db, context.secrets);

  const load = async (job: JobRow) => {
    const [publication] = await db.select().from(publications).where(eq(publications.jobId, job.id));
    return publication ?? null;
  };

  /** Ends the publication from its items: all applied, some, or none. */
  const finish = async (id: string, log: FastifyBaseLogger, message: string | null = null) => {
    const items = await db.select({ status: publicationItems.status }).from(publicationItems).where(eq(publicationItems.publicationId, id));
    const applied = items.filter((item) => item.status === 'applied').length;
    const status = applied === items.length ? 'done' : applied > 0 ? 'partial' : 'failed';
    // Ended once: a second runner finishing the same publication announces nothing more.
    const [row] = await db
      .update(publications)
      .set({ status, message, finishedAt: new Date() })
      .where(and(eq(publications.id, id), inArray(publications.status, ['queued', 'running'])))
      .returning();
    if (row && context.finished) {
      const ended: FinishedPublication = {
        id,
        userId: row.userId,
        platform: row.platform as Platform,
        productTitle: row.productTitle,
        productArticle: row.productArticle,
        status,
        applied,
        failed: items.length - applied,
        locale: row.locale,
      };
      context.finished(ended, log);
    }
  };

  const failOpen = async (id: string, message: string) => {
    await db
      .update(publicationItems)
      .set({ status: 'failed', message, updatedAt: new Date() })
      .where(and(eq(publicationItems.publicationId, id), inArray(publicationItems.status, ['pending', 'sent'])));
  };

  return {
    async run(job, jobLog) {
      const publication = await load(job);
      if (!publication || ['done', 'partial', 'failed'].includes(publication.status)) return;
      const log = jobLog.child({ publication: publication.id });
      const locale = isLocale(publication.locale) ? publication.locale : DEFAULT_LOCALE;
      const say = (key: MessageKey, vars: Record<string, string | number> = {}) => translate(locale, key, { platform: PLATFORM_NAMES[publication.platform as keyof typeof PLATFORM_NAMES], ...vars });
      await db.update(publications).set({ status: 'running' }).where(eq(publications.id, publication.id));
      const items = await db
        .select({ item: publicationItems, storageKey: assets.storageKey })
        .from(publicationItems)
        .leftJoin(assets, eq(assets.id, publicationItems.assetId))
        .where(and(eq(publicationItems.publicationId, publication.id), inArray(publicationItems.status, ['pending', 'sent'])));
      const found = publication.connectionId ? await connections.withKeys(publication.userId, publication.connectionId) : null;
      if (!found) {
        await failOpen(publication.id, say('PUBLISH_STORE_GONE'));
        return finish(publication.id, log);
      }
      const record: Parameters<typeof publishToWildberries>[0]['record'] = async (position, fields) => {
        const message = fields.message && MESSAGE_KEYS.has(fields.message) ? say(fields.message as MessageKey) : fields.message;
        await db
          .update(publicationItems)
          .set({ ...fields, ...(message !== undefined ? { message } : {}), updatedAt: new Date() })
          .where(and(eq(publicationItems.publicationId, publication.id), eq(publicationItems.position, position)));
      };
      const sending: SendItem[] = items.map(({ item, storageKey }) => ({
        position: item.position,
        kind: item.kind as SendItem['kind'],
        status: item.status as SendItem['status'],
        slot: item.slot,
        bytes: () => (storageKey ? context.storage.get(storageKey, MAX_FILE_BYTES) : Promise.resolve(null)),
      }));
      // For the platforms that fetch pictures: each item's link, the one it was sent as once sent.
      const linked = items.map(({ item, storageKey }) => ({
        position: item.position,
        status: item.status as 'pending' | 'sent',
        sentUrl: item.status === 'sent' ? item.remoteUrl : null,
        url: async () => (storageKey ? new URL(await context.storage.downloadUrl(storageKey, LINK_SECONDS), context.publicUrl).href : null),
      }));
      const common = { placement: publication.placement as 'main' | 'gallery', mode: publication.mode as 'append' | 'replace', record, wait, pollMs: context.pollMs ?? 2000, applyWithinMs: context.applyWithinMs ?? 60_000 };
      try {
        let exists: boolean;
        if (publication.platform === 'ozon') {
          const keys = found.keys as StoreKeys<'ozon'>;
          exists = await publishToOzon(
            {
              ...common,
              base: context.options.ozonUrl,
              keys: { clientId: keys.client_id, apiKey: keys.api_key },
              productId: publication.productId,
              sent: publication.remoteTask ? (JSON.parse(publication.remoteTask) as OzonSent) : null,
              keep: async (sent) => {
                await db.update(publications).set({ remoteTask: JSON.stringify(sent) }).where(eq(publications.id, publication.id));
              },
              maxImages: OZON_MAX_IMAGES,
            },
            linked,
          );
        } else if (publication.platform === 'amazon') {
          exists = await publishToAmazon(
            {
              ...common,
              options: context.options,
              keys: found.keys as StoreKeys<'amazon'>,
              sku: publication.productId,
              layout: publication.remoteTask ? (JSON.parse(publication.remoteTask) as AmazonLayout) : null,
              keep: async (layout) => {
                await db.update(publications).set({ remoteTask: JSON.stringify(layout) }).where(eq(publications.id, publication.id));
              },
              tooMany: say('PUBLISH_TOO_MANY', { count: MEDIA_RULES.amazon.maxImages }),
            },
            linked,
          );
        } else if (publication.platform === 'demo') {
          // A demo publication left queued from when this server offered the demo store goes nowhere now.
          if (!context.options.demoStore) {
            await failOpen(publication.id, say('DEMO_STORE_OFF'));
            return finish(publication.id, log);
          }
          exists =
            UUID.test(publication.productId) &&
            (await demoStoreOf(db, context.storage).publish(
              { ...common, userId: publication.userId, cardId: publication.productId, publicationId: publication.id },
              sending.map((item, index) => ({ ...item, source: items[index]!.storageKey })),
            ));
        } else {
          const keys = found.keys as StoreKeys<'wildberries'>;
          const nmId = Number(publication.productId);
          exists = Number.isInteger(nmId) && (await publishToWildberries({ ...common, base: context.options.wildberriesUrl, token: keys.token, nmId }, sending));
        }
        if (!exists) await failOpen(publication.id, say('PUBLISH_CARD_MISSING', { id: publication.productId }));
      } catch (error) {
        // Keys the platform no longer takes: no retry will help, and the store is marked for new ones.
        if (error instanceof StoreRefused && ['wrong', 'expired', 'scope'].includes(error.refusal)) {
          await connections.markInvalid(found.connection.id);
          await failOpen(publication.id, error.detail);
          return finish(publication.id, log);
        }
        throw error;
      }
      await finish(publication.id, log);
    },

    async giveUp(job, error, jobLog) {
      const publication = await load(job);
      if (!publication || ['done', 'partial', 'failed'].includes(publication.status)) return;
      const locale = isLocale(publication.locale) ? publication.locale : DEFAULT_LOCALE;
      const log = jobLog.child({ publication: publication.id });
      log.warn({ err: error }, 'a publication was given up');
      await failOpen(publication.id, translate(locale, 'PUBLISH_NOT_APPLIED', { platform: PLATFORM_NAMES[publication.platform as keyof typeof PLATFORM_NAMES] }));
      await finish(publication.id, log, error instanceof Error ? error.message : String(error));
    },
  };
}
