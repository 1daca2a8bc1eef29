// What must hold of the money after every step of the model, for this run's sellers, read from
// the database, the sandbox's books and the API: each balance is the wallet, the ledger's sum and
// the lots' remainders; no lot goes below zero or above its amount, and a lapsed one never moves
// again; each payment and charge has one outcome, credited exactly once when it is completed and
// never when it is not, agreeing with what the provider took; what a refund or a dispute took
// back adds up; and nothing gives back more than was taken. A broken one throws, saying which.
import { sql, type SQL } from 'drizzle-orm';
import type { World } from './world';

const rowsOf = async <T>(world: World, query: SQL): Promise<T[]> => ((await world.t.app.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** This run's sellers, as a subquery. */
const mine = (world: World) => sql`(SELECT id FROM users WHERE username LIKE ${`${world.run}%`})`;

/** The tokens `minor` of `amountMinor` bought, as a refund or a dispute counts them: all for the whole, floor of the share for part. */
export const tokensOfShare = (tokens: number, amountMinor: number, minor: number) =>
  minor <= 0 ? 0 : amountMinor <= 0 || minor >= amountMinor ? tokens : Math.floor((tokens * minor) / amountMinor);

async function balances(world: World, problems: string[]) {
  const rows = await rowsOf<{ id: string; username: string; wallet: number; entries: number; lots: number }>(
    world,
    sql`SELECT u.id, u.username, coalesce(w.total_tokens, 0)::int AS wallet,
          (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.user_id = u.id)::int AS entries,
          (SELECT coalesce(sum(remaining), 0) FROM token_lots t WHERE t.user_id = u.id)::int AS lots
        FROM users u LEFT JOIN wallets w ON w.user_id = u.id WHERE u.id IN ${mine(world)}`,
  );
  for (const seller of world.sellers) {
    const row = rows.find((candidate) => candidate.id === seller.id);
    const answer = await world.t.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${seller.token}` } });
    const { total_tokens: total, expiring_tokens: expiring } = answer.json().data as { total_tokens: number; expiring_tokens: number };
    if (!row || total < 0 || row.wallet !== total || row.entries !== total || row.lots !== total || expiring > total) {
      problems.push(`${seller.username}: balance ${total} (expiring ${expiring}), wallet ${row?.wallet}, ledger sum ${row?.entries}, lot remainders ${row?.lots}`);
    }
  }
}

async function lots(world: World, problems: string[]) {
  const rows = await rowsOf<{ id: string; amount: number; remaining: number; lapsed: boolean; spent: number; restored: number; spends: number; expiry: boolean }>(
    world,
    sql`SELECT t.id::text, t.amount, t.remaining, t.lapsed_at IS NOT NULL AS lapsed,
          coalesce(sum(s.amount), 0)::int AS spent, coalesce(sum(s.restored), 0)::int AS restored, count(s.entry_id)::int AS spends,
          EXISTS (SELECT 1 FROM ledger e WHERE e.type = 'expiry' AND e.reference = 'lot:' || t.id) AS expiry
        FROM token_lots t LEFT JOIN lot_spends s ON s.lot_id = t.id
        WHERE t.user_id IN ${mine(world)} GROUP BY t.id`,
  );
  for (const lot of rows) {
    const where = `lot ${lot.id} (amount ${lot.amount}, remaining ${lot.remaining}, spent ${lot.spent}, restored ${lot.restored}, ${lot.spends} spends${lot.lapsed ? ', lapsed' : ''})`;
    if (lot.remaining < 0 || lot.remaining > lot.amount) problems.push(`${where}: out of its range`);
    if (!lot.lapsed && lot.remaining !== lot.amount - lot.spent + lot.restored) problems.push(`${where}: remaining is not amount − spent + restored`);
    if (!lot.lapsed) continue;
    if (lot.remaining !== 0 || !lot.expiry) problems.push(`${where}: lapsed but ${lot.remaining !== 0 ? 'not empty' : 'without its expiry entry'}`);
    // What was spent of it stays as it was when it lapsed (a give-back may only mark its spends restored, giving nothing).
    const state = `${lot.remaining}/${lot.spent}/${lot.spends}`;
    const first = world.lapsed.get(lot.id);
    if (first === undefined) world.lapsed.set(lot.id, state);
    else if (first !== state) problems.push(`${where}: moved after lapsing (remaining/spent/spends were ${first}, now ${state})`);
  }
}

interface Outcome {
  id: string;
  status: string;
  tokens: number;
  amount_minor: number;
  refunded_minor: number;
  refunded_tokens: number;
  unrecovered_tokens: number;
  credits: number;
  credited: number;
  refund_taken: number;
  remote_status: string | null;
  remote_refunded: number | null;
}

/** One outcome per payment or charge, credited once exactly when completed, agreeing with the provider's books. */
function outcomes(world: World, kind: 'payment' | 'charge', rows: Outcome[], problems: string[]) {
  for (const row of rows) {
    const where = `${kind} ${row.id} (${row.status}, ${row.tokens} tokens, ${row.amount_minor} minor; sandbox ${row.remote_status ?? 'none'})`;
    const before = world.outcomes.get(row.id);
    if (before && before !== 'pending' && before !== row.status) problems.push(`${where}: was ${before}, now ${row.status}`);
    world.outcomes.set(row.id, row.status);
    const owed = row.status === 'completed' && row.tokens > 0;
    if (owed && (row.credits !== 1 || row.credited !== row.tokens)) problems.push(`${where}: ${row.credits} credits of ${row.credited} tokens`);
    if (!owed && row.credits !== 0) problems.push(`${where}: credited ${row.credits} times though not completed`);
    if (row.status === 'completed' && row.remote_status !== 'succeeded') problems.push(`${where}: completed though the provider took no money`);
    if (row.status === 'failed' && row.remote_status === 'succeeded') problems.push(`${where}: failed though the provider took the money`);
    // A charge is answered at once: what the sandbox took is ours to credit in the same step.
    if (kind === 'charge' && row.remote_status === 'succeeded' && row.status !== 'completed') problems.push(`${where}: the provider took the money but the charge is not completed`);
    if (row.refunded_minor > (row.remote_refunded ?? 0)) problems.push(`${where}: ${row.refunded_minor} minor refunded of the provider's ${row.remote_refunded}`);
    if (row.refunded_tokens !== tokensOfShare(row.tokens, row.amount_minor, row.refunded_minor)) problems.push(`${where}: ${row.refunded_tokens} tokens refunded for ${row.refunded_minor} minor`);
    if (row.refund_taken + row.unrecovered_tokens !== row.refunded_tokens) {
      problems.push(`${where}: refunds took ${row.refund_taken} tokens and left ${row.unrecovered_tokens} unrecovered of ${row.refunded_tokens} refunded`);
    }
  }
}

async function payments(world: World, problems: string[]) {
  const rows = await rowsOf<Outcome>(
    world,
    sql`SELECT p.id::text, p.status, p.tokens, p.amount_minor, p.refunded_minor, p.refunded_tokens, p.unrecovered_tokens,
          (SELECT count(*) FROM ledger l WHERE l.type = 'top_up' AND l.reference = 'payment:' || p.id)::int AS credits,
          (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.type = 'top_up' AND l.reference = 'payment:' || p.id)::int AS credited,
          (SELECT coalesce(-sum(amount), 0) FROM ledger l WHERE l.type = 'top_up' AND l.reference LIKE 'refund:' || p.id || ':%')::int AS refund_taken,
          c.status AS remote_status, c.refunded_minor AS remote_refunded
        FROM payments p LEFT JOIN sandbox_checkouts c ON c.id = p.provider_payment_id
        WHERE p.user_id IN ${mine(world)}`,
  );
  outcomes(world, 'payment', rows, problems);
}

async function charges(world: World, problems: string[]) {
  const rows = await rowsOf<Outcome>(
    world,
    sql`SELECT ch.id::text, ch.status, ch.tokens, ch.amount_minor, ch.refunded_minor, ch.refunded_tokens, ch.unrecovered_tokens,
          (SELECT count(*) FROM ledger l WHERE l.type = 'subscription' AND l.reference = 'charge:' || ch.id)::int AS credits,
          (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.type = 'subscription' AND l.reference = 'charge:' || ch.id)::int AS credited,
          (SELECT coalesce(-sum(amount), 0) FROM ledger l WHERE l.type = 'subscription' AND l.reference LIKE 'refund:charge:' || ch.id || ':%')::int AS refund_taken,
          c.status AS remote_status, c.refunded_minor AS remote_refunded
        FROM subscription_charges ch LEFT JOIN sandbox_checkouts c ON c.payment_id = ch.id AND c.mode = 'charge'
        WHERE ch.user_id IN ${mine(world)}`,
  );
  outcomes(world, 'charge', rows, problems);
}

async function disputes(world: World, problems: string[]) {
  const rows = await rowsOf<{ dispute_id: string; status: string; taken_tokens: number; taken: number; given_count: number; given: number }>(
    world,
    sql`SELECT d.dispute_id, d.status, d.taken_tokens,
          (SELECT coalesce(-sum(amount), 0) FROM ledger l WHERE l.reference = 'dispute:' || d.provider || ':' || d.dispute_id)::int AS taken,
          (SELECT count(*) FROM ledger l WHERE l.reference = 'dispute-won:' || d.provider || ':' || d.dispute_id)::int AS given_count,
          (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.reference = 'dispute-won:' || d.provider || ':' || d.dispute_id)::int AS given
        FROM payment_disputes d WHERE d.user_id IN ${mine(world)}`,
  );
  for (const row of rows) {
    const where = `dispute ${row.dispute_id} (${row.status}, took ${row.taken_tokens})`;
    if (row.taken !== row.taken_tokens) problems.push(`${where}: the ledger took ${row.taken}`);
    if (row.given_count > (row.status === 'won' ? 1 : 0) || row.given > row.taken_tokens) problems.push(`${where}: gave back ${row.given} in ${row.given_count} entries`);
  }
}

/** Every credit is a bonus, a completed payment or charge, or gives back part of what an entry took — never more than it took. */
async function credits(world: World, problems: string[]) {
  const rows = await rowsOf<{ id: string; type: string; reference: string; amount: number; reason: string }>(
    world,
    sql`SELECT l.id::text, l.type, l.reference, l.amount,
          CASE
            WHEN l.reverses_id IS NOT NULL THEN
              CASE WHEN (SELECT coalesce(sum(g.amount), 0) FROM ledger g WHERE g.reverses_id = l.reverses_id AND g.amount > 0)
                        > (SELECT -r.amount FROM ledger r WHERE r.id = l.reverses_id) THEN 'gives back more than was taken' END
            WHEN l.type = 'sign_up_bonus' THEN CASE WHEN l.reference <> l.user_id::text THEN 'a bonus of another seller' END
            WHEN l.type = 'top_up' THEN CASE WHEN NOT EXISTS (SELECT 1 FROM payments p WHERE 'payment:' || p.id = l.reference AND p.status = 'completed') THEN 'no completed payment' END
            WHEN l.type = 'subscription' THEN CASE WHEN NOT EXISTS (SELECT 1 FROM subscription_charges c WHERE 'charge:' || c.id = l.reference AND c.status = 'completed') THEN 'no completed charge' END
            ELSE 'a credit of no known kind'
          END AS reason
        FROM ledger l WHERE l.user_id IN ${mine(world)} AND l.amount > 0`,
  );
  for (const row of rows) if (row.reason) problems.push(`credit ${row.id} ${row.type} ${row.reference} (${row.amount}): ${row.reason}`);
}

/** Checks everything above; throws with every broken one. */
export async function checkInvariants(world: World, after: string): Promise<void> {
  const problems: string[] = [];
  await balances(world, problems);
  await lots(world, problems);
  await payments(world, problems);
  await charges(world, problems);
  await disputes(world, problems);
  await credits(world, problems);
  if (problems.length > 0) throw new Error(`after step ${world.steps} (${after}):\n  ${problems.join('\n  ')}`);
}

/**
 * What a delivered notification could move, for comparing before and after a replay: this run's
 * ledger, and the state of its payments, charges, subscriptions and disputes.
 */
export async function moneySnapshot(world: World): Promise<string> {
  const [row] = await rowsOf<{ snapshot: string }>(
    world,
    sql`SELECT concat_ws(' | ',
          (SELECT count(*) || ' entries, sum ' || coalesce(sum(amount), 0) || ', last ' || coalesce(max(id), 0) FROM ledger WHERE user_id IN ${mine(world)}),
          (SELECT string_agg(id || ':' || status || ':' || refunded_minor, ',' ORDER BY id) FROM payments WHERE user_id IN ${mine(world)}),
          (SELECT string_agg(id || ':' || status || ':' || refunded_minor, ',' ORDER BY id) FROM subscription_charges WHERE user_id IN ${mine(world)}),
          (SELECT string_agg(id || ':' || status || ':' || plan_id || ':' || coalesce(current_period_end::text, '-'), ',' ORDER BY id) FROM subscriptions WHERE user_id IN ${mine(world)}),
          (SELECT string_agg(dispute_id || ':' || status || ':' || taken_tokens, ',' ORDER BY dispute_id) FROM payment_disputes WHERE user_id IN ${mine(world)})
        ) AS snapshot`,
  );
  return row!.snapshot;
}
