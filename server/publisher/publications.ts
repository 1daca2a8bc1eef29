// Publications: results a seller sends to one card of a connected store. Each picture is held to
// the platform's rules before anything is sent (Amazon's main one read for its white background) (refused ones are named with the reason); the rest
// go as a job, created in the same transaction as the publication under the seller's
// Idempotency-Key, so a repeated request publishes once.
import crypto from 'node:crypto';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { MEDIA_RULES, type Platform, type Publication, type PublishRequest } from '../../contract/publisher';
import type { Locale } from '../../contract/locales';
import type { Database } from '../db/client';
import { assets, jobs } from '../db/schema';
import { publicationItems, publications, storeConnections } from '../db/schema-publisher';
import { translate, type MessageKey } from '../lib/i18n';
import { onWhite } from './white-main';

type PublicationRow = typeof publications.$inferSelect;
type ItemRow = typeof publicationItems.$inferSelect;

/** How often a publication's job is tried: a platform down for a while is waited out. */
const PUBLISH_ATTEMPTS = 8;

export const PLATFORM_NAMES: Record<Platform, MessageKey> = {
  wildberries: 'PLATFORM_WILDBERRIES',
  ozon: 'PLATFORM_OZON',
  amazon: 'PLATFORM_AMAZON',
  demo: 'PLATFORM_DEMO',
};

const FORMATS: Record<string, 'jpeg' | 'png' | 'webp'> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

export class PublicationConflict extends Error {
  constructor() {
    super('the Idempotency-Key was used for another publication');
    this.name = 'PublicationConflict';
  }
}

interface AssetFacts {
  id: string;
  fileType: string;
  width: number;
  height: number;
  byteSize: number;
}

/** Why `platform` would refuse this result, in the seller's language; null when its rules take it. */
export function refusalOf(platform: Platform, asset: AssetFacts, locale: Locale): string | null {
  const rules = MEDIA_RULES[platform];
  const name = PLATFORM_NAMES[platform];
  if (asset.fileType.startsWith('video/')) {
    if (rules.maxVideoBytes === null) return translate(locale, 'PUBLISH_NO_VIDEO', { platform: name });
    if (asset.byteSize > rules.maxVideoBytes) return translate(locale, 'PUBLISH_TOO_LARGE', { platform: name, mb: rules.maxVideoBytes / 1024 / 1024 });
    return null;
  }
  const format = FORMATS[asset.fileType];
  if (!format || !rules.formats.includes(format)) return translate(locale, 'PUBLISH_FORMAT', { platform: name, formats: rules.formats.map((f) => f.toUpperCase()).join(', ') });
  if (asset.width < rules.minWidth || asset.height < rules.minHeight) {
    return translate(locale, 'PUBLISH_TOO_SMALL', { platform: name, min: `${rules.minWidth}×${rules.minHeight}`, size: `${asset.width}×${asset.height}` });
  }
  if (asset.byteSize > rules.maxImageBytes) return translate(locale, 'PUBLISH_TOO_LARGE', { platform: name, mb: rules.maxImageBytes / 1024 / 1024 });
  return null;
}

export function presentPublication(row: PublicationRow, items: ItemRow[]): Publication {
  return {
    id: row.id,
    platform: row.platform as Platform,
    connection_id: row.connectionId,
    product: { id: row.productId, article: row.productArticle, title: row.productTitle },
    placement: row.placement as Publication['placement'],
    mode: row.mode as Publication['mode'],
    status: row.status as Publication['status'],
    message: row.message,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    items: items
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        position: item.position,
        asset_id: item.assetId,
        kind: item.kind as 'image' | 'video',
        status: item.status as Publication['items'][number]['status'],
        message: item.message,
        remote_url: item.remoteUrl,
      })),
  };
}

const fingerprint = (request: PublishRequest) => crypto.createHash('sha256').update(JSON.stringify(request)).digest('hex');

/** A result's bytes as stored, for the checks that read the picture itself; null when gone. */
export type ReadResult = (storageKey: string) => Promise<Buffer | null>;

export function publicationsOf(db: Database, read: ReadResult) {
  const itemsOf = (ids: string[]) =>
    ids.length === 0 ? Promise.resolve([] as ItemRow[]) : db.select().from(publicationItems).where(inArray(publicationItems.publicationId, ids)).orderBy(asc(publicationItems.position));

  return {
    /**
     * The publication `key` names, made now with its job if it is new. Null when the connection or
     * a result is not the seller's.
     */
    async start(userId: string, key: string, request: PublishRequest, locale: Locale, reachable: ReadonlySet<Platform>): Promise<{ publication: Publication; created: boolean } | null> {
      const hash = fingerprint(request);
      const [earlier] = await db.select().from(publications).where(and(eq(publications.userId, userId), eq(publications.idempotencyKey, key)));
      if (earlier) {
        if (earlier.requestHash !== hash) throw new PublicationConflict();
        return { publication: presentPublication(earlier, await itemsOf([earlier.id])), created: false };
      }
      const [connection] = await db
        .select({ id: storeConnections.id, platform: storeConnections.platform })
        .from(storeConnections)
        .where(and(eq(storeConnections.id, request.connection_id), eq(storeConnections.userId, userId)));
      if (!connection || !reachable.has(connection.platform as Platform)) return null;
      const platform = connection.platform as Platform;
      const found = await db
        .select({ id: assets.id, fileType: assets.fileType, width: assets.width, height: assets.height, byteSize: assets.byteSize, storageKey: assets.storageKey })
        .from(assets)
        .where(and(eq(assets.userId, userId), inArray(assets.id, request.asset_ids)));
      const byId = new Map(found.map((asset) => [asset.id, asset]));
      const ordered = [...new Set(request.asset_ids)].map((id) => byId.get(id));
      if (ordered.some((asset) => !asset)) return null;
      const rules = MEDIA_RULES[platform];
      let images = 0;
      const items = (ordered as (AssetFacts & { storageKey: string })[]).map((asset, position) => {
        const kind = asset.fileType.startsWith('video/') ? ('video' as const) : ('image' as const);
        let refusal = refusalOf(platform, asset, locale);
        if (!refusal && kind === 'image' && (images += 1) > rules.maxImages) {
          refusal = translate(locale, 'PUBLISH_TOO_MANY', { platform: PLATFORM_NAMES[platform], count: rules.maxImages });
        }
        return { position, assetId: asset.id, kind, storageKey: asset.storageKey, status: refusal ? 'failed' : 'pending', message: refusal };
      });
      // The picture that becomes the main one (the first sent, as the main picture or in place of
      // the others), where the platform wants it on white.
      const main = rules.whiteMain && (request.placement === 'main' || request.mode === 'replace') ? items.find((item) => item.kind === 'image' && item.status === 'pending') : undefined;
      if (main) {
        const bytes = await read(main.storageKey);
        if (!bytes || !(await onWhite(bytes))) Object.assign(main, { status: 'failed', message: translate(locale, 'PUBLISH_NOT_WHITE', { platform: PLATFORM_NAMES[platform] }) });
      }
      const sending = items.some((item) => item.status === 'pending');
      const made = await db.transaction(async (tx) => {
        const [job] = sending ? await tx.insert(jobs).values({ kind: 'publish', maxAttempts: PUBLISH_ATTEMPTS }).returning({ id: jobs.id }) : [];
        const [row] = await tx
          .insert(publications)
          .values({
            userId,
            connectionId: connection.id,
            platform,
            productId: request.product_id,
            productArticle: request.product_article,
            productTitle: request.product_title,
            placement: request.placement,
            mode: request.mode,
            status: sending ? 'queued' : 'failed',
            idempotencyKey: key,
            requestHash: hash,
            jobId: job?.id ?? null,
            locale,
            finishedAt: sending ? null : new Date(),
          })
          .onConflictDoNothing()
          .returning();
        if (!row) return null;
        const rows = await tx
          .insert(publicationItems)
          .values(items.map(({ storageKey: _key, ...item }) => ({ ...item, publicationId: row.id })))
          .returning();
        return presentPublication(row, rows);
      });
      // Another request under the same key won the race: answer what it made.
      if (!made) return this.start(userId, key, request, locale, reachable);
      return { publication: made, created: true };
    },

    async get(userId: string, id: string): Promise<Publication | null> {
      const [row] = await db.select().from(publications).where(and(eq(publications.id, id), eq(publications.userId, userId)));
      return row ? presentPublication(row, await itemsOf([row.id])) : null;
    },

    /** A page of the seller's publications, newest first. */
    async list(userId: string, page: number, pageSize: number): Promise<{ rows: Publication[]; total: number }> {
      const [rows, [counted]] = await Promise.all([
        db.select().from(publications).where(eq(publications.userId, userId)).orderBy(desc(publications.createdAt), desc(publications.id)).limit(pageSize).offset((page - 1) * pageSize),
        db.select({ total: count() }).from(publications).where(eq(publications.userId, userId)),
      ]);
      const items = await itemsOf(rows.map((row) => row.id));
      return { rows: rows.map((row) => presentPublication(row, items.filter((item) => item.publicationId === row.id))), total: counted?.total ?? 0 };
    },
  };
}
export type Publications = ReturnType<typeof publicationsOf>;
