// How far a database is migrated, and whether this code can run it: the last migration Drizzle
// recorded in drizzle.__drizzle_migrations (its journal time and the sha256 of its SQL) against
// the migrations this code ships. A backup records it so a restore can refuse one taken by a newer
// SoleStudio (this code would not know its schema) or by another line of SoleStudio altogether.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What a database says it applied: how many migrations, and the last one's time and hash. */
export interface AppliedMigrations {
  count: number;
  last_created_at: number;
  last_hash: string;
}

/** The same, with the last migration's name where this code knows it. */
export interface MigrationLevel extends AppliedMigrations {
  last_tag: string | null;
}

interface ShippedMigration {
  tag: string;
  when: number;
  hash: string;
}

type Query = (text: string) => Promise<{ rows: unknown[] }>;

/** The database's applied migrations, or null when it was never migrated. */
export async function appliedMigrations(query: Query): Promise<AppliedMigrations | null> {
  const table = await query(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!(table.rows[0] as { present: boolean } | undefined)?.present) return null;
  const result = await query(
    `SELECT hash, created_at::text AS created_at, (SELECT count(*) FROM drizzle.__drizzle_migrations)::int AS count
       FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
  );
  const row = result.rows[0] as { hash: string; created_at: string; count: number } | undefined;
  return row ? { count: Number(row.count), last_created_at: Number(row.created_at), last_hash: row.hash } : null;
}

/** The migrations in `folder` (the journal's order), each with the hash Drizzle records for it. */
export function shippedMigrations(folder: string): ShippedMigration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.map(({ tag, when }) => ({
    tag,
    when,
    hash: crypto.createHash('sha256').update(fs.readFileSync(path.join(folder, `${tag}.sql`), 'utf8')).digest('hex'),
  }));
}

export function levelOf(applied: AppliedMigrations, folder: string): MigrationLevel {
  const known = shippedMigrations(folder).find((migration) => migration.when === applied.last_created_at);
  return { ...applied, last_tag: known?.tag ?? null };
}

/**
 * Why this code cannot run a database at `level`, or null when it can (the same level, or an
 * older one its start-up migrates).
 */
export function levelProblem(level: MigrationLevel, folder: string): string | null {
  const shipped = shippedMigrations(folder);
  const newest = shipped.at(-1);
  const name = level.last_tag ?? `migration ${level.count} (recorded at ${level.last_created_at})`;
  if (!newest || level.last_created_at > newest.when || level.count > shipped.length) {
    return (
      `it was made by a newer SoleStudio: its database is migrated to ${name}, and this code knows migrations up to ` +
      `${newest?.tag ?? 'none'}. Restore it with that version or a later one.`
    );
  }
  const same = shipped.find((migration) => migration.when === level.last_created_at);
  if (!same || same.hash !== level.last_hash || shipped.indexOf(same) + 1 !== level.count) {
    return `its database was migrated by another line of SoleStudio: ${name} is not a migration this code ships.`;
  }
  return null;
}
