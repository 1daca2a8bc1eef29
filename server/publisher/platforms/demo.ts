// The demo store this server plays itself (DEMO_STORE, on by default only where nothing real is
// expected): a seller who connects it gets three cards, labelled as the demo's, to try publishing
// end to end with no marketplace keys. It keeps Wildberries' rules and manners — media replace
// the card's whole list, the main picture is the first — and its own copies of what it is sent,
// so a result deleted later stays on the card as it would on a marketplace.
import crypto from 'node:crypto';
import { and, asc, eq, ilike, or } from 'drizzle-orm';
import type { Locale } from '../../../contract/locales';
import { PRODUCT_PAGE_SIZE, type StoreProductPage } from '../../../contract/publisher';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { demoStoreCards } from '../../db/schema-publisher';
import { translate, type MessageKey } from '../../lib/i18n';
import { loadSharp } from '../../lib/sharp';
import { DOWNLOAD_URL_LIFETIME_S, type ObjectStorage } from '../../storage/storage';
import { BadCursor } from './store';
import type { SendContext, SendItem } from './wildberries-publish';

interface DemoMedia {
  kind: 'image' | 'video';
  key: string;
}

/** The demo's cards as a new seller finds them: a title, an article, and how many pictures it has. */
const SEED: readonly { article: string; title: MessageKey; pictures: readonly string[] }[] = [
  { article: 'DEMO-RUN-01', title: 'DEMO_CARD_SNEAKERS', pictures: ['#d9e4f5', '#f5e3d9'] },
  { article: 'DEMO-WNT-02', title: 'DEMO_CARD_BOOTS', pictures: ['#e6e0d4'] },
  { article: 'DEMO-CLS-03', title: 'DEMO_CARD_LOAFERS', pictures: [] },
];
/** How long the links to a card's copies given with a publication stay good. */
const APPLIED_LINK_SECONDS = 7 * 24 * 60 * 60;

/** A card's picture before the seller adds theirs: a plain sheet that says whose it is. */
async function seedPicture(colour: string, article: string, index: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200">
    <rect width="900" height="1200" fill="${colour}"/>
    <text x="450" y="560" font-family="sans-serif" font-size="72" font-weight="700" fill="#374151" text-anchor="middle">SoleStudio demo</text>
    <text x="450" y="660" font-family="sans-serif" font-size="48" fill="#4b5563" text-anchor="middle">${article} · ${index + 1}</text>
  </svg>`;
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const mediaOf = (row: { media: string }) => JSON.parse(row.media) as DemoMedia[];

export interface DemoSendContext extends Pick<SendContext, 'placement' | 'mode' | 'record'> {
  userId: string;
  cardId: string;
  publicationId: string;
}

/** An item of a publication, with the storage key of its file (for the extension of the copy). */
export interface DemoSendItem extends SendItem {
  source: string | null;
}

export function demoStoreOf(db: Database, storage: ObjectStorage) {
  const link = (key: string, seconds = DOWNLOAD_URL_LIFETIME_S) => storage.downloadUrl(key, seconds);

  return {
    /** Gives the seller the demo's cards the first time they connect it. */
    async seed(userId: string, locale: Locale): Promise<void> {
      const [any] = await db.select({ id: demoStoreCards.id }).from(demoStoreCards).where(eq(demoStoreCards.userId, userId)).limit(1);
      if (any) return;
      const cards: (typeof demoStoreCards.$inferInsert)[] = [];
      for (const [order, card] of SEED.entries()) {
        const id = crypto.randomUUID();
        const media: DemoMedia[] = [];
        for (const [index, colour] of card.pictures.entries()) {
          const key = `demo-store/${userId}/${id}/seed-${index + 1}.jpg`;
          await storage.put(key, await seedPicture(colour, card.article, index), 'image/jpeg');
          media.push({ kind: 'image', key });
        }
        // Apart by a millisecond each, so the list keeps the order they are given in.
        const createdAt = new Date(Date.now() + order);
        cards.push({ id, userId, article: card.article, title: translate(locale, card.title), media: JSON.stringify(media), createdAt, updatedAt: createdAt });
      }
      // All or none, and once: two connects at the same moment wait on the seller's row.
      await db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const [made] = await tx.select({ id: demoStoreCards.id }).from(demoStoreCards).where(eq(demoStoreCards.userId, userId)).limit(1);
        if (!made) await tx.insert(demoStoreCards).values(cards);
      });
    },

    /** A page of the seller's demo cards, searched by title or article. */
    async products(userId: string, q: string, cursor: string | null): Promise<StoreProductPage> {
      if (cursor !== null && !/^\d{1,6}$/.test(cursor)) throw new BadCursor();
      const offset = cursor === null ? 0 : Number(cursor);
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .select()
        .from(demoStoreCards)
        .where(and(eq(demoStoreCards.userId, userId), q ? or(ilike(demoStoreCards.title, pattern), ilike(demoStoreCards.article, pattern)) : undefined))
        .orderBy(asc(demoStoreCards.createdAt), asc(demoStoreCards.id))
        .limit(PRODUCT_PAGE_SIZE + 1)
        .offset(offset);
      const items = await Promise.all(
        rows.slice(0, PRODUCT_PAGE_SIZE).map(async (row) => {
          const media = mediaOf(row);
          const first = media.find((item) => item.kind === 'image');
          return {
            id: row.id,
            article: row.article,
            title: row.title,
            thumbnail: first ? await link(first.key) : null,
            pictures: media.filter((item) => item.kind === 'image').length,
            has_video: media.some((item) => item.kind === 'video'),
          };
        }),
      );
      return { items, next_cursor: rows.length > PRODUCT_PAGE_SIZE ? String(offset + PRODUCT_PAGE_SIZE) : null };
    },

    /**
     * Copies the items onto the card and puts them where the seller asked. Safe to run again: each
     * item's copy has a key of its own (the publication's and its position), and the card's list
     * is rebuilt in one locked step from what it holds without any of this publication's copies,
     * then with all of them — those placed by an earlier run too. False when there is no such card.
     */
    async publish(context: DemoSendContext, items: DemoSendItem[]): Promise<boolean> {
      const mine = and(eq(demoStoreCards.id, context.cardId), eq(demoStoreCards.userId, context.userId));
      const [card] = await db.select({ id: demoStoreCards.id }).from(demoStoreCards).where(mine);
      if (!card) return false;
      const prefix = `demo-store/${context.userId}/${card.id}/${context.publicationId}-`;
      const sent: (DemoMedia & { position: number })[] = [];
      for (const item of [...items].sort((a, b) => a.position - b.position)) {
        // A result deleted since: its copy cannot be vouched for.
        if (!item.source) {
          await context.record(item.position, { status: 'failed', message: 'PUBLISH_ASSET_GONE' });
          continue;
        }
        const extension = item.kind === 'video' ? 'mp4' : item.source.endsWith('.png') ? 'png' : 'jpg';
        const key = `${prefix}${item.position}.${extension}`;
        if (item.status === 'pending') {
          const bytes = await item.bytes();
          if (!bytes) {
            await context.record(item.position, { status: 'failed', message: 'PUBLISH_ASSET_GONE' });
            continue;
          }
          await storage.put(key, bytes, item.kind === 'video' ? 'video/mp4' : extension === 'png' ? 'image/png' : 'image/jpeg');
          await context.record(item.position, { status: 'sent' });
        }
        sent.push({ kind: item.kind, key, position: item.position });
      }
      if (sent.length === 0) return true;

      const positionOf = (key: string) => Number(key.slice(prefix.length).split('.')[0]);
      await db.transaction(async (tx) => {
        const [fresh] = await tx.select().from(demoStoreCards).where(mine).for('update');
        if (!fresh) return;
        const media = mediaOf(fresh);
        const earlier = media.filter((item) => item.key.startsWith(prefix)).map((item) => ({ ...item, position: positionOf(item.key) }));
        const ours = [...earlier.filter((item) => !sent.some((s) => s.key === item.key)), ...sent].sort((a, b) => a.position - b.position);
        const current = media.filter((item) => !item.key.startsWith(prefix));
        const theirs = ours.filter((item) => item.kind === 'image').map(({ kind, key }) => ({ kind, key }));
        const others = current.filter((item) => item.kind === 'image');
        const video = ours.find((item) => item.kind === 'video') ?? current.find((item) => item.kind === 'video');
        const images = context.mode === 'replace' ? theirs : context.placement === 'main' ? [...theirs, ...others] : [...others, ...theirs];
        const next: DemoMedia[] = [...images, ...(video ? [{ kind: video.kind, key: video.key }] : [])];
        await tx.update(demoStoreCards).set({ media: JSON.stringify(next), updatedAt: new Date() }).where(eq(demoStoreCards.id, fresh.id));
      });
      for (const item of sent) await context.record(item.position, { status: 'applied', remoteUrl: await link(item.key, APPLIED_LINK_SECONDS) });
      return true;
    },
  };
}
export type DemoStore = ReturnType<typeof demoStoreOf>;
