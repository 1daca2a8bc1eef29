// The scale bench's database (issue 34): 2,000 sellers, 100,000 finished tasks with 1,000,000
// results, their photos, outputs and ledger entries, written by a few INSERT … SELECT over
// generate_series, so PGlite and PostgreSQL make the same rows. Every choice is a function of
// SCALE_SEED and the row's number (md5, not random()), so two runs make the same data; only the
// times are relative to when it runs. The schema is the one of SEED_LEVEL; the bench migrates
// the newer migrations onto the seeded database afterwards, measuring them.
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { contentModuleOf } from '../../contract/selection';
import type { Category } from '../../contract/enums';

export const SCALE_SEED = 'solestudio-scale-34';
/** The migration whose schema the seed writes. */
export const SEED_LEVEL = '0014_demo_store';

/** Each seller's sign-up bonus, spent by their first charges. */
const BONUS = 50;

export const SCALE = {
  sellers: 2000,
  tasks: 100_000,
  /** The first seller's share: the seller the lists are measured for. */
  bigTasks: 5000,
  outputsPerTask: 10,
  photosPerTask: 5,
  /** One photo no task uses (a retake, a draft) for this many tasks: what the retention sweep deletes. */
  tasksPerUnusedPhoto: 10,
  /** Every how many sellers one has a subscription period's tokens left past its end: the lapses. */
  sellersPerLapse: 10,
  /** Payments still pending that reconciliation asks the provider about. */
  pendingPayments: 400,
  days: 365,
} as const;

/** Each task's outputs: one result each, across every section of material history. */
const OUTPUTS: { category: Category; view?: string; background?: string; scene?: string; cost: number }[] = [
  { category: 'PRODUCT', view: 'right_45', cost: 2 },
  { category: 'PRODUCT', view: 'front', cost: 2 },
  { category: 'PRODUCT', view: 'back', cost: 2 },
  { category: 'PRODUCT2', cost: 3 },
  { category: 'POSTER', cost: 3 },
  { category: 'HALF_BODY', background: 'SCENE', cost: 5 },
  { category: 'FULL_BODY', background: 'SIMPLE', cost: 5 },
  { category: 'OUTFIT_STILL_LIFE', cost: 4 },
  { category: 'OUTFIT_COLOR', cost: 4 },
  { category: 'CREATIVE_VIDEO', scene: 'SHOE_GIANT', cost: 10 },
];
const TASK_COST = OUTPUTS.reduce((sum, output) => sum + output.cost, 0);
const VIEWS = ['right_45', 'right_side', 'left_side', 'front', 'back'].slice(0, SCALE.photosPerTask);

/** The task's content_config: one entry per category it made. */
const CONFIG = [...new Map(OUTPUTS.map((o) => [o.category, o])).values()].map((o) => ({
  content_module: contentModuleOf(o.category),
  category: o.category,
  ...(o.background ? { background: o.background } : {}),
  ...(o.scene ? { creative_scene: o.scene } : {}),
  custom_params: { shoe_params: {} },
  name: o.category,
  selected: true,
  ...(o.category === 'PRODUCT' ? { views: OUTPUTS.filter((p) => p.category === 'PRODUCT').map((p) => p.view) } : {}),
}));

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** A deterministic number in [0, 2^32) for the SQL expression `of`, salted by `salt`. */
const hashed = (salt: string, of: string) => `(('x' || left(md5(${literal(`${SCALE_SEED}:${salt}:`)} || (${of})::text), 8))::bit(32)::bigint)`;
/** A deterministic uuid for the SQL expression `of` in the namespace `kind`. */
const uuidOf = (kind: string, of: string) => `md5(${literal(`${SCALE_SEED}:${kind}:`)} || (${of})::text)::uuid`;
/** The seller (1-based) of task `n`: the first seller has the first bigTasks, the rest are dealt round. */
const sellerOfTask = (n: string) => `(CASE WHEN ${n} <= ${SCALE.bigTasks} THEN 1 ELSE 2 + (${n} - ${SCALE.bigTasks + 1}) % ${SCALE.sellers - 1} END)`;
const userOf = (seller: string) => uuidOf('user', seller);

/** The rows a statement answers. */
export const rowsOf = async <T>(db: Database, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The seller the lists are measured for (5,000 tasks, 50,000 results). */
export const BIG_SELLER = { username: 'scale1', password: 'Shoes4ever!' } as const;

export interface SeedFigures {
  seconds: number;
  rows: Record<string, number>;
}

/**
 * Fills an empty database at SEED_LEVEL. `passwordHash` is every seller's (the big seller signs
 * in with BIG_SELLER.password). The rows are written with triggers and foreign keys off
 * (session_replication_role = replica, one transaction a step): what the triggers keep (the content
 * versions, the token lots and what each charge spent) is written by the seed itself, and the
 * money's invariants are checked at the end.
 */
export async function seedScale(db: Database, passwordHash: string, log: (line: string) => void = () => {}): Promise<SeedFigures> {
  const started = performance.now();
  const rows: Record<string, number> = {};
  const step = async (name: string, statement: string) => {
    const at = performance.now();
    const count = await db.transaction(async (tx) => {
      await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
      const result = (await tx.execute(sql.raw(statement))) as unknown as { rowCount?: number; affectedRows?: number };
      return Number(result.rowCount ?? result.affectedRows ?? 0);
    });
    rows[name] = (rows[name] ?? 0) + count;
    log(`  ${name}: ${count.toLocaleString('en')} rows, ${((performance.now() - at) / 1000).toFixed(1)} s`);
  };
  const anchor = `date_trunc('minute', now())`;

  await step(
    'users',
    `INSERT INTO users (id, username, email, password_hash, email_verified_at, channel, locale, created_at)
     SELECT ${userOf('s')}, 'scale' || s, 'scale' || s || '@shop.example', ${literal(passwordHash)},
       ${anchor} - interval '400 days', '{"key":"online","extra":""}'::jsonb, (ARRAY['en','ru','zh'])[1 + s % 3],
       ${anchor} - interval '400 days'
     FROM generate_series(1, ${SCALE.sellers}) AS s`,
  );
  await step('content_versions', `INSERT INTO content_versions (user_id, version) SELECT id, 1 FROM users`);
  const indexes = await withoutIndexes(db, BULK_TABLES);

  // Tasks spread over the last year by their hash, and apart by their number (no two alike); the
  // photos, outputs and results are made from them.
  const photoId = (task: string, v: string) => `md5(${literal(`${SCALE_SEED}:photo:`)} || ${task} || ':' || ${v})::uuid`;
  await step(
    'tasks',
    `INSERT INTO tasks (id, user_id, idempotency_key, status, content_config, material_ids, cost, locale, finished_at, created_at)
     SELECT id, ${userOf(sellerOfTask('n'))}, 'task-' || n, 'completed', ${literal(JSON.stringify(CONFIG))}::jsonb,
       (SELECT jsonb_agg(${photoId('id::text', 'v')}::text ORDER BY v) FROM generate_series(1, ${VIEWS.length}) AS v),
       ${TASK_COST}, 'en', t + interval '2 minutes', t
     FROM generate_series(1, ${SCALE.tasks}) AS n,
       LATERAL (SELECT ${uuidOf('task', 'n')} AS id,
         ${anchor} - make_interval(secs => ${hashed('task-time', 'n')} % ${SCALE.days * 86400} + 3600) - make_interval(secs => n / 1000000.0) AS t) AS k`,
  );
  const views = `ARRAY[${VIEWS.map(literal).join(',')}]`;
  await step(
    'materials',
    `INSERT INTO materials (id, user_id, idempotency_key, file_name, file_type, file_size, description, view, storage_key,
       status, width, height, byte_size, uploaded_at, created_at)
     SELECT m.id, t.user_id, 'photo-' || t.idempotency_key || '-' || v, 'IMG_' || v || '.jpg', 'image/jpeg', 900000,
       json_build_object('view', (${views})[v])::text, (${views})[v], 'materials/' || t.user_id || '/' || m.id || '.jpg',
       'uploaded', 2080, 2080, 850000, t.created_at - interval '5 minutes' + make_interval(secs => v),
       t.created_at - interval '6 minutes' + make_interval(secs => v)
     FROM tasks t, generate_series(1, ${VIEWS.length}) AS v, LATERAL (SELECT ${photoId('t.id::text', 'v')} AS id) AS m`,
  );
  // A retake or a draft no task uses, for every tasksPerUnusedPhoto-th task: what retention sweeps.
  await step(
    'materials',
    `INSERT INTO materials (id, user_id, idempotency_key, file_name, file_type, file_size, description, view, storage_key,
       status, width, height, byte_size, uploaded_at, created_at)
     SELECT m.id, t.user_id, 'retake-' || t.idempotency_key, 'IMG_retake.jpg', 'image/jpeg', 900000, '{"view":"front"}', 'front',
       'materials/' || t.user_id || '/' || m.id || '.jpg', 'uploaded', 2080, 2080, 850000, t.created_at, t.created_at
     FROM tasks t, LATERAL (SELECT ${photoId('t.id::text', "'retake'")} AS id) AS m
     WHERE ${hashed('retake', 't.id')} % ${SCALE.tasksPerUnusedPhoto} = 0`,
  );
  const outputs = `(VALUES ${OUTPUTS.map(
    (o, i) =>
      `(${i}, ${literal(o.category)}, ${literal(contentModuleOf(o.category))}, ${o.background ? literal(o.background) : 'NULL'}, ${o.scene ? literal(o.scene) : 'NULL'}, ${o.view ? literal(o.view) : 'NULL'}, ${o.cost})`,
  ).join(', ')}) AS o(position, category, module, background, scene, view, cost)`;
  const outputId = `md5(${literal(`${SCALE_SEED}:output:`)} || t.id || ':' || o.position)::uuid`;
  await step(
    'task_outputs',
    `INSERT INTO task_outputs (id, task_id, position, name, content_module, category, background, creative_scene, view, engine, cost, status, created_at)
     SELECT ${outputId}, t.id, o.position, o.category, o.module, o.category, o.background, o.scene, o.view, 'studio', o.cost, 'completed', t.created_at
     FROM tasks t, ${outputs}`,
  );
  await step(
    'assets',
    `INSERT INTO assets (id, user_id, task_id, output_id, content_module, category, background, creative_scene, storage_key, poster_key,
       file_type, width, height, byte_size, created_at)
     SELECT a.id, t.user_id, t.id, ${outputId}, o.module, o.category, o.background, o.scene,
       'assets/' || t.user_id || '/' || a.id || CASE WHEN o.category = 'CREATIVE_VIDEO' THEN '.mp4' ELSE '.jpg' END,
       CASE WHEN o.category = 'CREATIVE_VIDEO' THEN 'assets/' || t.user_id || '/' || a.id || '-poster.jpg' END,
       CASE WHEN o.category = 'CREATIVE_VIDEO' THEN 'video/mp4' ELSE 'image/jpeg' END,
       1200, 1600, 300000 + ('x' || left(a.id::text, 4))::bit(16)::int,
       t.finished_at + make_interval(secs => o.position / 1000.0)
     FROM tasks t, ${outputs}, LATERAL (SELECT md5(${literal(`${SCALE_SEED}:asset:`)} || t.id || ':' || o.position)::uuid AS id) AS a`,
  );

  const indexed = performance.now();
  for (const index of indexes) await db.execute(sql.raw(index));
  log(`  ${indexes.length} indexes built again, ${((performance.now() - indexed) / 1000).toFixed(1)} s`);

  // Money: each seller's sign-up bonus and one top-up paying for every task, the charges, and for
  // every sellersPerLapse-th seller a subscription period whose tokens are left past its end. The
  // lots are what the ledger's trigger makes of that: the charges, in order, spend the bonus and
  // then the top-up; the period's lot is untouched, waiting to lapse.
  await step(
    'payments',
    `INSERT INTO payments (id, user_id, provider, provider_payment_id, method, tokens, price_usd_cents, amount_minor, currency, status, settled_at, created_at)
     SELECT ${uuidOf('payment', 'user_id')}, user_id, 'sandbox', 'sbx_' || user_id, 'card_intl', tokens, tokens * 10, tokens * 10, 'USD', 'completed',
       ${anchor} - interval '390 days', ${anchor} - interval '390 days'
     FROM (SELECT user_id, sum(cost) + 100 AS tokens FROM tasks GROUP BY user_id) AS spent`,
  );
  await step(
    'ledger',
    `INSERT INTO ledger (user_id, type, amount, reference, created_at)
     SELECT id, 'sign_up_bonus', ${BONUS}, id::text, ${anchor} - interval '400 days' FROM users ORDER BY users.id`,
  );
  await step(
    'ledger',
    `INSERT INTO ledger (user_id, type, amount, reference, created_at)
     SELECT user_id, 'top_up', tokens, 'payment:' || id, created_at FROM payments WHERE status = 'completed' ORDER BY user_id`,
  );
  await step(
    'ledger',
    `INSERT INTO ledger (user_id, type, amount, reference, created_at)
     SELECT user_id, 'content_generation', -cost, id::text, created_at FROM tasks ORDER BY created_at, id`,
  );
  await step(
    'ledger',
    `INSERT INTO ledger (user_id, type, amount, reference, created_at, expires_at)
     SELECT ${userOf('s')}, 'subscription', 200, 'charge:' || ${uuidOf('charge', 's')}, ${anchor} - interval '40 days', ${anchor} - interval '10 days'
     FROM generate_series(1, ${SCALE.sellers}, ${SCALE.sellersPerLapse}) AS s`,
  );
  await step(
    'token_lots',
    `INSERT INTO token_lots (user_id, entry_id, amount, remaining, expires_at)
     SELECT l.user_id, l.id, l.amount,
       CASE l.type WHEN 'sign_up_bonus' THEN greatest(0, l.amount - spent.total)
         WHEN 'top_up' THEN l.amount - greatest(0, spent.total - ${BONUS}) ELSE l.amount END,
       l.expires_at
     FROM ledger l JOIN (SELECT user_id, -sum(amount) AS total FROM ledger WHERE type = 'content_generation' GROUP BY user_id) AS spent USING (user_id)
     WHERE l.amount > 0 ORDER BY l.id`,
  );
  await step(
    'lot_spends',
    `WITH charge AS (
       SELECT id, user_id, -amount AS cost, coalesce(sum(-amount) OVER (PARTITION BY user_id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
       FROM ledger WHERE type = 'content_generation'
     ), part AS (
       SELECT c.id, c.user_id, least(c.cost, greatest(0, ${BONUS} - c.before)) AS bonus, c.cost FROM charge c
     )
     INSERT INTO lot_spends (entry_id, lot_id, amount)
     SELECT p.id, lot.id, CASE e.type WHEN 'sign_up_bonus' THEN p.bonus ELSE p.cost - p.bonus END
     FROM part p JOIN token_lots lot ON lot.user_id = p.user_id JOIN ledger e ON e.id = lot.entry_id
     WHERE (e.type = 'sign_up_bonus' AND p.bonus > 0) OR (e.type = 'top_up' AND p.cost > p.bonus)`,
  );
  await step('wallets', `INSERT INTO wallets (user_id, total_tokens) SELECT user_id, sum(amount) FROM ledger GROUP BY user_id`);

  // Checkouts sellers left open at the sandbox: reconciliation asks about each once it is due.
  await step(
    'payments',
    `INSERT INTO payments (id, user_id, provider, provider_payment_id, method, tokens, price_usd_cents, amount_minor, currency, check_at, created_at)
     SELECT ${uuidOf('pending', 'p')}, ${userOf(`1 + p * ${Math.floor(SCALE.sellers / SCALE.pendingPayments)}`)}, 'sandbox', 'sbx_pending_' || p, 'card_intl',
       100, 1000, 1000, 'USD', ${anchor} - interval '1 minute', ${anchor} - interval '1 hour'
     FROM generate_series(0, ${SCALE.pendingPayments - 1}) AS p`,
  );
  await step(
    'sandbox_checkouts',
    `INSERT INTO sandbox_checkouts (id, payment_id, method, amount_minor, currency, description, success_url, cancel_url, locale, created_at)
     SELECT provider_payment_id, id, method, amount_minor, currency, '100 tokens', 'http://127.0.0.1/recharge', 'http://127.0.0.1/recharge', 'en', created_at
     FROM payments WHERE status = 'pending'`,
  );
  await checkMoney(db);
  return { seconds: (performance.now() - started) / 1000, rows };
}

/** The big tables, whose indexes are built once they are filled rather than row by row. */
const BULK_TABLES = ['tasks', 'materials', 'task_outputs', 'assets'];

/** Drops the tables' indexes that back no constraint; answers the statements that make them again. */
async function withoutIndexes(db: Database, tables: readonly string[]): Promise<string[]> {
  const found = await rowsOf<{ indexname: string; indexdef: string }>(
    db,
    sql`SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename IN ${tables}
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const index of found) await db.execute(sql.raw(`DROP INDEX "${index.indexname}"`));
  return found.map((index) => index.indexdef);
}

/** The ledger's invariants on the seeded money: every wallet is its ledger and its lots, every charge what it spent. */
async function checkMoney(db: Database): Promise<void> {
  const [off] = await rowsOf<{ wallets: number; charges: number }>(
    db,
    sql`SELECT
      (SELECT count(*) FROM wallets w WHERE w.total_tokens <> (SELECT sum(amount) FROM ledger l WHERE l.user_id = w.user_id)
        OR w.total_tokens <> (SELECT sum(remaining) FROM token_lots t WHERE t.user_id = w.user_id))::int AS wallets,
      (SELECT count(*) FROM ledger l WHERE l.amount < 0 AND -l.amount <> (SELECT coalesce(sum(amount), 0) FROM lot_spends s WHERE s.entry_id = l.id))::int AS charges`,
  );
  if (!off) throw new Error('the money check answered nothing');
  if (off.wallets !== 0 || off.charges !== 0) throw new Error(`the seeded money does not add up: ${off.wallets} wallets, ${off.charges} charges`);
}
