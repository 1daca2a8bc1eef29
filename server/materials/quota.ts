// How many bytes a seller keeps in storage, and the quota (STORAGE_QUOTA_MB) that bounds it: their
// photos and edit uploads (a pending one at the size it declared, since its upload address takes
// that many bytes), and their results.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { assets, materials } from '../db/schema';
import { HttpError } from '../lib/errors';

export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

const MB = 1024 * 1024;

export async function storedBytes(db: Database, userId: string): Promise<number> {
  const [[photos], [results]] = await Promise.all([
    db
      .select({
        bytes: sql<string>`coalesce(sum(CASE WHEN ${materials.status} = 'uploaded' THEN coalesce(${materials.byteSize}, ${materials.fileSize}) ELSE ${materials.fileSize} END), 0)`,
      })
      .from(materials)
      .where(and(eq(materials.userId, userId), inArray(materials.status, ['pending', 'uploaded']))),
    db
      .select({ bytes: sql<string>`coalesce(sum(${assets.byteSize}), 0)` })
      .from(assets)
      .where(eq(assets.userId, userId)),
  ]);
  return Number(photos?.bytes ?? 0) + Number(results?.bytes ?? 0);
}

export async function storageUsage(db: Database, userId: string, quotaBytes: number): Promise<StorageUsage> {
  return { usedBytes: await storedBytes(db, userId), quotaBytes };
}

/** Throws 413 STORAGE_QUOTA_EXCEEDED when `adding` more bytes would take the seller over the quota. */
export async function ensureRoom(db: Database, userId: string, quotaBytes: number, adding: number): Promise<void> {
  const used = await storedBytes(db, userId);
  if (used + adding <= quotaBytes) return;
  throw new HttpError(413, 'STORAGE_QUOTA_EXCEEDED', 'STORAGE_QUOTA_EXCEEDED', {
    used: Math.ceil(used / MB),
    quota: Math.floor(quotaBytes / MB),
  });
}
