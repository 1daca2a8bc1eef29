// The real side of the money model: one app with the embedded sandbox, the sellers of the current
// property run (fresh each run, on a database the runs share), what they started — payments,
// tasks, the keys of their upgrades — and the jobs' clock. Sellers act through the app's HTTP API
// and the sandbox's own pages, as a browser would; only what a provider or an operator does from
// outside (a refund, a dispute, a card that starts declining) goes through the sandbox's methods.
import crypto from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { Sandbox } from '../../../server/billing/providers/sandbox';
import { customerOf } from '../customers';
import { linkIn } from '../mime';
import { waitForMail } from '../outbox';
import type { TestApp } from '../test-app';
import type { Deliveries } from './deliveries';

export interface Seller {
  username: string;
  id: string;
  token: string;
  /** The mandate the seller authorised, reused for their next subscription. */
  mandateId?: string;
}

export interface Task {
  id: string;
  seller: number;
  perOutput: number;
  outputs: number;
}

export interface World {
  t: TestApp;
  sandbox: Sandbox;
  deliveries: Deliveries;
  /** The start of this run's sellers' names: every check looks at them only. */
  run: string;
  /** The jobs' clock: moved forward by the model, never back; never behind the real one. */
  at: Date;
  sellers: Seller[];
  payments: { id: string; seller: number }[];
  tasks: Task[];
  /** Idempotency-Keys of upgrades sent, so one can be sent again. */
  upgradeKeys: { seller: number; key: string; planId: number }[];
  /** The status each payment and charge was last seen with (an outcome never changes). */
  outcomes: Map<string, string>;
  /** Each lapsed lot as first seen lapsed (it never changes after). */
  lapsed: Map<string, string>;
  steps: number;
  /** What the steps came to, over every run (`note`): how much of the model a run reached. */
  tally: Map<string, number>;
}

export const SIGN_UP_BONUS = 50;
export const MAX_SELLERS = 3;
const PASSWORD = 'Shoes4ever!';

/** The environment the model's app runs with: the sandbox for both providers, its notifications sent at once (and held back by the model). */
export const MODEL_ENV: Record<string, string> = {
  PAYMENTS_SANDBOX: 'true',
  PUBLIC_URL: 'http://shop.test',
  SANDBOX_NOTIFY_DELAY_MS: '1',
  SIGN_UP_BONUS_TOKENS: String(SIGN_UP_BONUS),
  // The model's sellers act far more often in a minute than a person: limits are not what it tests.
  RATE_LIMIT_DISABLED: 'true',
  // The jobs run when the model says, as of its clock.
  RUN_JOBS: 'false',
};

export function newWorld(t: TestApp, deliveries: Deliveries, tally: Map<string, number>): World {
  const sandbox = t.app.billing.sandbox;
  if (!sandbox) throw new Error('the money model needs the payment sandbox');
  deliveries.clear();
  return {
    t,
    sandbox,
    deliveries,
    run: `m${crypto.randomBytes(5).toString('hex')}`,
    at: new Date(),
    sellers: [],
    payments: [],
    tasks: [],
    upgradeKeys: [],
    outcomes: new Map(),
    lapsed: new Map(),
    steps: 0,
    tally,
  };
}

/** Counts one outcome of a step. */
export function note(world: World, outcome: string): void {
  world.tally.set(outcome, (world.tally.get(outcome) ?? 0) + 1);
}

/** Calls the API as `seller`; the answer's status and JSON body. */
export async function call(world: World, seller: Seller, method: InjectOptions['method'], url: string, payload?: object, headers: Record<string, string> = {}) {
  const answer = await world.t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${seller.token}`, 'accept-language': 'en', ...headers },
    ...(payload ? { payload } : {}),
  });
  return { status: answer.statusCode, body: answer.json() as { error?: string; data?: unknown }, text: answer.body };
}

/** A new seller of this run signs up and confirms the e-mail address (the sign-up bonus), then signs in. */
export async function signUp(world: World): Promise<Seller> {
  const username = `${world.run}${world.sellers.length}`;
  const email = `${username}@shop.example`;
  const since = Date.now() - 1000;
  const { app } = world.t;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { username, email, password: PASSWORD, password_confirm: PASSWORD, channel: JSON.stringify({ key: 'friend', extra: '' }) },
  });
  if (registered.statusCode !== 201) throw new Error(`signing up ${username}: ${registered.body}`);
  const link = new URL(linkIn(await waitForMail(world.t.dataDir, email, { after: since })));
  const verified = await app.inject({ method: 'GET', url: `/api/v1/auth/verify-email${link.search}` });
  if (verified.statusCode !== 200) throw new Error(`confirming ${email}: ${verified.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login/custom', payload: { username_or_email: username, password: PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`signing in ${username}: ${login.body}`);
  const seller = { username, id: registered.json().data.user.id as string, token: login.json().data.access_token as string };
  world.sellers.push(seller);
  return seller;
}

/** The page the sandbox sent the seller to, as a path of this app. */
const pagePath = (redirectUrl: string) => new URL(redirectUrl).pathname;

/** The seller acts on the sandbox's hosted page: pays (with a test card where it asks for one), declines or leaves. */
export async function onSandboxPage(world: World, redirectUrl: string, action: 'pay' | 'decline' | 'cancel'): Promise<number> {
  const page = pagePath(redirectUrl);
  const card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', holder: 'Model Seller' };
  const answer = await world.t.app.inject({
    method: 'POST',
    url: `${page}/${action}`,
    ...(action === 'pay' ? { payload: new URLSearchParams(card).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
  });
  // 303 back to the shop; 409 when the checkout had already ended.
  if (answer.statusCode !== 303 && answer.statusCode !== 409) throw new Error(`the sandbox page answered ${answer.statusCode} to ${action}: ${answer.body}`);
  return answer.statusCode;
}

/** The seller's authorised mandate of the local provider (authorised on the sandbox's page the first time). */
export async function authorisedMandate(world: World, index: number): Promise<string> {
  const seller = world.sellers[index]!;
  if (seller.mandateId) return seller.mandateId;
  const customer = await call(world, seller, 'POST', '/localpay/customers', customerOf(`${seller.username}-shop`, 'Model'));
  if (customer.status !== 200) throw new Error(`saving billing details: ${customer.text}`);
  const created = await call(world, seller, 'POST', '/localpay/mandates', { reference: `${seller.username}-${crypto.randomUUID()}`, payment_method: 'sberpay_ru', terminal_type: 'web' });
  if (created.status !== 200) throw new Error(`starting a mandate: ${created.text}`);
  const mandate = created.body.data as { id: string; redirect_url: string };
  await onSandboxPage(world, mandate.redirect_url, 'pay');
  seller.mandateId = mandate.id;
  return mandate.id;
}

/** Moves the jobs' clock on by `hours` (and up to the real clock, should it have passed it). */
export function advance(world: World, hours: number): Date {
  world.at = new Date(Math.max(world.at.getTime() + hours * 60 * 60_000, Date.now()));
  return world.at;
}
