// The steps of the money model, as fast-check commands: what sellers do (sign up, buy tokens on
// the sandbox's page, spend them on tasks, subscribe, upgrade, cancel), what providers and
// operators do (notify, late, out of order and again; refund; see a dispute opened, won or
// lost; a card that starts declining) and what the jobs do as the clock moves on. Each step
// checks what it alone decides (a task costs exactly its price, a replay moves nothing), then
// every invariant of invariants.ts.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { DisputeStatus } from '../../../server/billing/providers/sandbox';
import { checkInvariants, moneySnapshot } from './invariants';
import { MAX_SELLERS, SIGN_UP_BONUS, advance, authorisedMandate, call, note, onSandboxPage, signUp, type World } from './world';

/** What the commands' preconditions read: how many of each thing there is to act on. */
export interface Model {
  sellers: number;
  payments: number;
  tasks: number;
  held: number;
  delivered: number;
}

export const modelOf = (world: World): Model => ({
  sellers: world.sellers.length,
  payments: world.payments.length,
  tasks: world.tasks.length,
  held: world.deliveries.held.length,
  delivered: world.deliveries.delivered.length,
});

const fail = (what: string): never => {
  throw new Error(what);
};

const balanceOf = (world: World, seller: number) => world.t.app.ledger.balanceOf(world.sellers[seller]!.id);

/** A step: acts, lets the sandbox's notifications of it be taken off the wire, then checks the invariants. */
abstract class Step implements fc.AsyncCommand<Model, World> {
  abstract check(model: Readonly<Model>): boolean;
  protected abstract act(world: World): Promise<void>;
  abstract toString(): string;

  async run(model: Model, world: World): Promise<void> {
    world.steps += 1;
    await this.act(world);
    await world.sandbox.idle();
    Object.assign(model, modelOf(world));
    await checkInvariants(world, this.toString());
  }
}

/** A step of one seller (by index, modulo how many have signed up). */
abstract class SellerStep extends Step {
  constructor(protected readonly pick: number) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.sellers > 0;
  }
  protected seller = (world: World) => this.pick % world.sellers.length;
}

class Join extends Step {
  check(model: Readonly<Model>) {
    return model.sellers < MAX_SELLERS;
  }
  toString() {
    return 'join';
  }
  protected async act(world: World) {
    const seller = await signUp(world);
    const balance = await world.t.app.ledger.balanceOf(seller.id);
    if (balance !== SIGN_UP_BONUS) fail(`a new seller confirmed the address and has ${balance} tokens, not the bonus of ${SIGN_UP_BONUS}`);
  }
}

class BonusAgain extends SellerStep {
  toString() {
    return `bonusAgain(s${this.pick})`;
  }
  protected async act(world: World) {
    const index = this.seller(world);
    const before = await balanceOf(world, index);
    const credited = await world.t.app.ledger.creditSignUpBonus(world.sellers[index]!.id, SIGN_UP_BONUS);
    if (credited || (await balanceOf(world, index)) !== before) fail('the sign-up bonus was credited a second time');
  }
}

const TOP_UP_WAYS = [
  { provider: 'card', method: '' },
  { provider: 'localpay', method: 'card_ru' },
  { provider: 'localpay', method: 'sberpay_ru' },
] as const;
type PageAction = 'pay' | 'decline' | 'cancel';

class TopUp extends SellerStep {
  constructor(
    pick: number,
    private readonly pack: number,
    private readonly way: number,
    private readonly then: PageAction | 'leave',
  ) {
    super(pick);
  }
  toString() {
    return `topUp(s${this.pick}, pack ${this.pack}, ${TOP_UP_WAYS[this.way]!.provider}/${TOP_UP_WAYS[this.way]!.method || 'card_intl'}, then ${this.then})`;
  }
  protected async act(world: World) {
    const index = this.seller(world);
    const packs = world.t.app.config.prices.packs;
    const way = TOP_UP_WAYS[this.way]!;
    const before = await balanceOf(world, index);
    const started = await call(world, world.sellers[index]!, 'POST', '/tokens/topup', {
      token_amount: packs[this.pack % packs.length]!.tokens,
      currency: 'USD',
      pm_id: way.method,
      payment_provider: way.provider,
    });
    if (started.status !== 200) fail(`starting a top-up answered ${started.status}: ${started.text}`);
    const { payment_id: id, redirect_url: redirect } = started.body.data as { payment_id: string; redirect_url: string };
    world.payments.push({ id, seller: index });
    if (this.then !== 'leave') note(world, `page ${this.then}: ${await onSandboxPage(world, redirect, this.then)}`);
    // The provider's word has not reached us yet: nothing is credited by the page alone.
    if ((await balanceOf(world, index)) !== before) fail('the balance moved before the provider said the payment succeeded');
  }
}

class OnPage extends Step {
  constructor(
    private readonly pick: number,
    private readonly action: PageAction,
  ) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.payments > 0;
  }
  toString() {
    return `onPage(p${this.pick}, ${this.action})`;
  }
  protected async act(world: World) {
    const payment = world.payments[this.pick % world.payments.length]!;
    const rows = (await world.t.app.database.db.execute(sql`SELECT redirect_url, failure_reason FROM payments WHERE id = ${payment.id}`)) as unknown as {
      rows: { redirect_url: string; failure_reason: string | null }[];
    };
    // Known (see the regression test "a top-up given up as expired"): the page of a payment the
    // jobs gave up on still takes the money. The model leaves such pages alone so the property
    // goes on to everything else; the regression test keeps the finding.
    if (rows.rows[0]!.failure_reason === 'expired') return note(world, 'page of a payment given up: left alone');
    note(world, `page ${this.action}: ${await onSandboxPage(world, rows.rows[0]!.redirect_url, this.action)}`);
  }
}

class Deliver extends Step {
  constructor(private readonly pick: number) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.held > 0;
  }
  toString() {
    return `deliver(n${this.pick})`;
  }
  protected async act(world: World) {
    const delivered = await world.deliveries.deliver(this.pick);
    if (delivered) note(world, `deliver ${delivered.notification.type}: ${delivered.changed > 0 ? 'applied' : 'nothing'}`);
  }
}

class Replay extends Step {
  constructor(private readonly pick: number) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.delivered > 0;
  }
  toString() {
    return `replay(n${this.pick})`;
  }
  protected async act(world: World) {
    const before = await moneySnapshot(world);
    const replayed = await world.deliveries.replay(this.pick);
    const after = await moneySnapshot(world);
    if (replayed) note(world, `replay ${replayed.notification.type}`);
    if (replayed && (replayed.changed !== 0 || after !== before)) {
      fail(`replaying ${replayed.notification.type} ${replayed.notification.eventId} changed ${replayed.changed} things:\n    before ${before}\n    after  ${after}`);
    }
  }
}

/** What the sandbox took money for, of this run's sellers: top-ups and subscription charges, oldest first. */
async function paidCheckouts(world: World): Promise<{ id: string; amount_minor: number }[]> {
  const result = await world.t.app.database.db.execute(sql`
    SELECT c.id, c.amount_minor FROM sandbox_checkouts c
    WHERE c.status = 'succeeded' AND c.mode IN ('payment', 'charge')
      AND (c.payment_id IN (SELECT p.id FROM payments p JOIN users u ON u.id = p.user_id WHERE u.username LIKE ${`${world.run}%`})
        OR c.payment_id IN (SELECT ch.id FROM subscription_charges ch JOIN users u ON u.id = ch.user_id WHERE u.username LIKE ${`${world.run}%`}))
    ORDER BY c.created_at, c.id`);
  return (result as unknown as { rows: { id: string; amount_minor: number }[] }).rows;
}

class Refund extends Step {
  constructor(
    private readonly pick: number,
    private readonly percent: number,
  ) {
    super();
  }
  check() {
    return true;
  }
  toString() {
    return `refund(c${this.pick}, ${this.percent === 100 ? 'the rest' : `${this.percent}%`})`;
  }
  protected async act(world: World) {
    const paid = await paidCheckouts(world);
    if (paid.length === 0) return;
    const checkout = paid[this.pick % paid.length]!;
    note(world, `refund ${this.percent}%`);
    await world.sandbox.refund(checkout.id, this.percent === 100 ? undefined : Math.max(1, Math.floor((checkout.amount_minor * this.percent) / 100)));
  }
}

class Dispute extends Step {
  constructor(
    private readonly pick: number,
    private readonly status: DisputeStatus,
  ) {
    super();
  }
  check() {
    return true;
  }
  toString() {
    return `dispute(c${this.pick}, ${this.status})`;
  }
  protected async act(world: World) {
    const paid = await paidCheckouts(world);
    if (paid.length === 0) return;
    note(world, `dispute ${this.status}: ${(await world.sandbox.dispute(paid[this.pick % paid.length]!.id, this.status)) ? 'sent' : 'none'}`);
  }
}

class ChargeTask extends SellerStep {
  constructor(
    pick: number,
    private readonly perOutput: number,
    private readonly outputs: number,
  ) {
    super(pick);
  }
  toString() {
    return `task(s${this.pick}, ${this.outputs} × ${this.perOutput})`;
  }
  protected async act(world: World) {
    const index = this.seller(world);
    const { id: userId } = world.sellers[index]!;
    const cost = this.perOutput * this.outputs;
    const taskId = crypto.randomUUID();
    const before = await balanceOf(world, index);
    // As generation charges a task: one statement, the task only while the balance covers it.
    const result = (await world.t.app.database.db.execute(sql`
      WITH task AS (
        SELECT ${taskId}::text AS id WHERE EXISTS (SELECT 1 FROM wallets WHERE user_id = ${userId} AND total_tokens >= ${cost})
      ), ${world.t.app.ledger.chargeTaskCtes(userId, cost)}
      SELECT wallet.total_tokens AS balance FROM task, wallet`)) as unknown as { rows: { balance: number }[] };
    const charged = result.rows.length === 1;
    const after = await balanceOf(world, index);
    if (charged !== before >= cost || after !== (charged ? before - cost : before)) {
      fail(`a task of ${cost} on a balance of ${before} was ${charged ? '' : 'not '}charged, leaving ${after}`);
    }
    note(world, charged ? 'task charged' : 'task refused');
    if (charged) world.tasks.push({ id: taskId, seller: index, perOutput: this.perOutput, outputs: this.outputs });
  }
}

class RefundOutput extends Step {
  constructor(
    private readonly pick: number,
    private readonly output: number,
  ) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.tasks > 0;
  }
  toString() {
    return `refundOutput(t${this.pick}, o${this.output})`;
  }
  protected async act(world: World) {
    const task = world.tasks[this.pick % world.tasks.length]!;
    const output = this.output % task.outputs;
    const before = await balanceOf(world, task.seller);
    await world.t.app.ledger.refundOutput(world.sellers[task.seller]!.id, { id: `${task.id}:${output}`, cost: task.perOutput, taskId: task.id });
    const given = (await balanceOf(world, task.seller)) - before;
    // Tokens that lapsed since the task was charged are not given back.
    note(world, given === task.perOutput ? 'output refunded' : given > 0 ? 'output refunded in part' : 'output refund: nothing');
    if (given < 0 || given > task.perOutput) fail(`refunding an output of ${task.perOutput} moved the balance by ${given}`);
  }
}

/** The seller's live subscription through the local provider, if any. */
async function liveSubscription(world: World, index: number): Promise<string | undefined> {
  const mine = await call(world, world.sellers[index]!, 'GET', '/subscription/my');
  const data = mine.body.data as { id: string; status: string } | null;
  return data && ['active', 'past_due', 'unpaid'].includes(data.status) ? data.id : undefined;
}

const expectStatus = (what: string, answer: { status: number; text: string }, allowed: number[]) => {
  if (!allowed.includes(answer.status)) fail(`${what} answered ${answer.status}: ${answer.text}`);
};

class Subscribe extends SellerStep {
  constructor(
    pick: number,
    private readonly planId: number,
    private readonly interval: 'month' | 'year',
  ) {
    super(pick);
  }
  toString() {
    return `subscribe(s${this.pick}, plan ${this.planId}, ${this.interval})`;
  }
  protected async act(world: World) {
    const index = this.seller(world);
    const mandateId = await authorisedMandate(world, index);
    const answer = await call(world, world.sellers[index]!, 'POST', '/localpay/subscriptions', {
      plan_id: this.planId,
      mandate_id: mandateId,
      reference: `sub-${crypto.randomUUID()}`,
      interval: this.interval,
    });
    expectStatus('subscribing', answer, [200, 409]);
    note(world, `subscribe: ${answer.status === 200 ? (answer.body.data as { status: string }).status : answer.body.error}`);
  }
}

class Upgrade extends SellerStep {
  constructor(
    pick: number,
    private readonly planId: number,
    private readonly again: boolean,
  ) {
    super(pick);
  }
  toString() {
    return `upgrade(s${this.pick}, plan ${this.planId}${this.again ? ', an earlier key' : ''})`;
  }
  protected async act(world: World) {
    const index = this.seller(world);
    const id = await liveSubscription(world, index);
    if (!id) return;
    const earlier = world.upgradeKeys.filter((entry) => entry.seller === index).at(-1);
    const key = this.again && earlier ? earlier.key : crypto.randomUUID();
    const planId = this.again && earlier ? earlier.planId : this.planId;
    world.upgradeKeys.push({ seller: index, key, planId });
    const answer = await call(world, world.sellers[index]!, 'PUT', `/localpay/subscriptions/${id}`, { plan_id: planId }, { 'idempotency-key': key });
    expectStatus('upgrading', answer, [200, 400, 402, 409]);
    note(world, `upgrade${this.again && earlier ? ' again' : ''}: ${answer.status === 200 ? 'ok' : answer.body.error}`);
  }
}

class Cancel extends SellerStep {
  toString() {
    return `cancel(s${this.pick})`;
  }
  protected async act(world: World) {
    const index = this.seller(world);
    const id = await liveSubscription(world, index);
    if (!id) return;
    expectStatus('cancelling', await call(world, world.sellers[index]!, 'POST', `/localpay/subscriptions/${id}/cancel`), [200, 404]);
    note(world, 'cancel');
  }
}

class Declines extends SellerStep {
  constructor(
    pick: number,
    private readonly declines: boolean,
  ) {
    super(pick);
  }
  toString() {
    return `cardDeclines(s${this.pick}, ${this.declines})`;
  }
  protected async act(world: World) {
    const seller = world.sellers[this.seller(world)]!;
    if (!seller.mandateId) return;
    const result = (await world.t.app.database.db.execute(sql`SELECT provider_method_id FROM mandates WHERE id = ${seller.mandateId}`)) as unknown as {
      rows: { provider_method_id: string | null }[];
    };
    const method = result.rows[0]?.provider_method_id;
    if (method) await world.sandbox.setMethodDeclines(method, this.declines);
    if (method) note(world, `card declines ${this.declines}`);
  }
}

class Jobs extends Step {
  constructor(private readonly hours: number) {
    super();
  }
  check() {
    return true;
  }
  toString() {
    return `jobs(+${this.hours} h)`;
  }
  protected async act(world: World) {
    // Reconciliation asks about pending payments, then the subscription jobs renew, end and lapse.
    const at = advance(world, this.hours);
    const asked = await world.t.app.billing.payments.reconcile(at);
    const run = await world.t.app.billing.subscriptions.run(at);
    note(world, 'jobs');
    if (asked > 0) note(world, 'jobs: payments asked');
    if (run.renewed > 0) note(world, 'jobs: renewals');
    if (run.ended > 0) note(world, 'jobs: ended');
    if (run.lapsed > 0) note(world, 'jobs: tokens lapsed');
  }
}

const seller = fc.nat(MAX_SELLERS * 4);
const any = fc.nat(1000);

/** Every kind of step, the commonest listed more than once (fast-check picks among the list evenly). */
export const moneyCommands: fc.Arbitrary<fc.AsyncCommand<Model, World>>[] = [
  fc.constant(new Join()),
  seller.map((s) => new BonusAgain(s)),
  ...Array.from({ length: 2 }, () =>
    fc
      .tuple(seller, fc.nat(5), fc.nat(TOP_UP_WAYS.length - 1), fc.constantFrom<PageAction | 'leave'>('pay', 'pay', 'pay', 'decline', 'cancel', 'leave'))
      .map(([s, pack, way, then]) => new TopUp(s, pack, way, then)),
  ),
  fc.tuple(any, fc.constantFrom<PageAction>('pay', 'decline', 'cancel')).map(([p, action]) => new OnPage(p, action)),
  ...Array.from({ length: 3 }, () => any.map((n) => new Deliver(n))),
  any.map((n) => new Replay(n)),
  fc.tuple(any, fc.constantFrom(100, 50, 10)).map(([c, percent]) => new Refund(c, percent)),
  fc.tuple(any, fc.constantFrom<DisputeStatus>('open', 'won', 'lost')).map(([c, status]) => new Dispute(c, status)),
  ...Array.from({ length: 2 }, () => fc.tuple(seller, fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 6 })).map(([s, per, n]) => new ChargeTask(s, per, n))),
  fc.tuple(any, fc.nat(5)).map(([task, output]) => new RefundOutput(task, output)),
  fc.tuple(seller, fc.integer({ min: 1, max: 4 }), fc.constantFrom<'month' | 'year'>('month', 'month', 'year')).map(([s, plan, interval]) => new Subscribe(s, plan, interval)),
  fc.tuple(seller, fc.integer({ min: 2, max: 4 }), fc.boolean()).map(([s, plan, again]) => new Upgrade(s, plan, again)),
  seller.map((s) => new Cancel(s)),
  fc.tuple(seller, fc.boolean()).map(([s, on]) => new Declines(s, on)),
  fc.constantFrom(1, 24, 24 * 3, 24 * 8, 24 * 32).map((hours) => new Jobs(hours)),
];
