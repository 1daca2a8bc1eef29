// Accounts under load: the cost of one password hash, and sign-in latency with 20 sellers
// signing in at once over loopback (the rate limiter off, as on a bench it would only say 429).
import autocannon from 'autocannon';
import { hashPassword } from '../../server/account/passwords';
import { linkIn } from '../../tests/support/mime';
import { waitForMail } from '../../tests/support/outbox';

export async function hashTimings(runs = 20): Promise<number[]> {
  await hashPassword('warm-up-1!');
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await hashPassword(`Shoes4ever!${i}`);
    times.push(performance.now() - started);
  }
  return times;
}

export async function verifiedSeller(url: string, dataDir: string, username = 'benchseller') {
  const seller = { username, email: `${username}@shop.example`, password: 'Shoes4ever!' };
  const registered = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      ...seller,
      password_confirm: seller.password,
      channel: JSON.stringify({ key: 'online', extra: '' }),
    }),
  });
  if (registered.status !== 201) throw new Error(`registration failed: ${await registered.text()}`);
  const link = new URL(linkIn(await waitForMail(dataDir, seller.email)));
  const verified = await fetch(`${url}/api/v1/auth/verify-email${link.search}`);
  if (!verified.ok) throw new Error('verification failed');
  return seller;
}

/** Signs a seller in (remembered) and returns the bearer token. */
export async function signedInToken(url: string, seller: { username: string; password: string }): Promise<string> {
  const login = await fetch(`${url}/api/v1/auth/login/custom`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username_or_email: seller.username, password: seller.password, remember_me: true }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${await login.text()}`);
  return ((await login.json()) as { data: { access_token: string } }).data.access_token;
}

export interface SignInLoad {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  failures: number;
  total: number;
}

export async function signInUnderLoad(url: string, dataDir: string, connections = 20, seconds = 10): Promise<SignInLoad> {
  const seller = await verifiedSeller(url, dataDir);
  const load = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/auth/login/custom`,
      method: 'POST',
      connections,
      duration,
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ username_or_email: seller.username, password: seller.password, remember_me: true }),
    });
  return measuredLoad(load, seconds);
}

/** A 3 s warm-up (JIT, database caches), then the measured run, summarised. */
export async function measuredLoad(load: (seconds: number) => Promise<autocannon.Result>, seconds: number): Promise<SignInLoad> {
  await load(3);
  const result = await load(seconds);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.average,
    failures: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}
