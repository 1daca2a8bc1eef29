// Buying tokens under load (issue 18): POST /tokens/topup from 20 clients at once through the
// embedded sandbox provider, then the sandbox's signed notifications for those payments from 20
// clients at once, each one a real credit — checked afterwards against the balance. And what
// opening /recharge adds to the JavaScript a seller already has, from Vite's build manifest.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { measuredLoad, signedInToken, verifiedSeller, type SignInLoad } from './auth';

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  isEntry?: boolean;
}

/** The static-import closure of a manifest chunk: its files. */
function closure(manifest: Record<string, ManifestChunk>, key: string, out = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || out.has(chunk.file)) return out;
  out.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, out);
  return out;
}

/**
 * The JavaScript opening /recharge adds for a seller coming from the workspace (gzip), and
 * whether any of the page's own files is already on the landing page's critical path.
 */
export function rechargePageCost(distDir: string): { gzipBytes: number; files: number; inEntry: boolean } {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const keyOf = (src: string) => {
    const key = Object.keys(manifest).find((candidate) => manifest[candidate]?.src === src || candidate === src);
    if (!key) throw new Error(`${src} is not in the build manifest`);
    return key;
  };
  const entry = closure(manifest, Object.keys(manifest).find((key) => manifest[key]?.isEntry && key.endsWith('index.html'))!);
  const already = closure(manifest, keyOf('src/features/workspace/HomePage.tsx'), new Set(entry));
  const pageKey = keyOf('src/features/recharge/RechargePage.tsx');
  const page = closure(manifest, pageKey);
  const added = [...page].filter((file) => !already.has(file));
  return {
    gzipBytes: added.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length, 0),
    files: added.length,
    inEntry: entry.has(manifest[pageKey]!.file),
  };
}

const TOP_UP = { token_amount: 300, currency: 'USD', pm_id: 'card_ru', payment_provider: 'localpay' };
/** 300 tokens at $12.99, in whole roubles at 95 to the dollar. */
const AMOUNT_MINOR = 123_400;

export interface PaymentLoads {
  topUp: SignInLoad;
  webhook: SignInLoad;
  /** Payments the notifications credited, and whether the balance grew by exactly those. */
  credits: number;
  creditedExactly: boolean;
}

/**
 * The server must run with AUTH_SECRET = `authSecret` (the sandbox signs with a key derived from
 * it), RUN_JOBS=false and the sandbox's own notifications held back (SANDBOX_NOTIFY_DELAY_MS).
 */
export async function paymentsUnderLoad(url: string, dataDir: string, authSecret: string, connections = 20, seconds = 10): Promise<PaymentLoads> {
  const seller = await verifiedSeller(url, dataDir, 'benchbuyer');
  const token = await signedInToken(url, seller);
  const auth = { authorization: `Bearer ${token}` };
  const paymentIds: string[] = [];
  const topUpLoad = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/tokens/topup`,
      method: 'POST',
      connections,
      duration,
      headers: { ...auth, 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify(TOP_UP),
      requests: [
        {
          onResponse: (status, body) => {
            if (status === 200) paymentIds.push((JSON.parse(body) as { data: { payment_id: string } }).data.payment_id);
          },
        },
      ],
    });
  const topUp = await measuredLoad(topUpLoad, seconds);

  const secret = crypto.createHmac('sha256', new TextEncoder().encode(authSecret)).update('sandbox-notifications').digest();
  const notifications = paymentIds.map((paymentId) => {
    const body = JSON.stringify({
      id: `evt_sbx_bench_${crypto.randomUUID()}`,
      type: 'payment.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { checkout_id: `sbx_${paymentId.replaceAll('-', '')}`, payment_id: paymentId, amount_minor: AMOUNT_MINOR, currency: 'RUB' },
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    return { body, signature: `t=${timestamp},v1=${signature}` };
  });
  const balance = async () => ((await (await fetch(`${url}/api/v1/tokens/balance`, { headers: auth })).json()) as { data: { total_tokens: number } }).data.total_tokens;
  const before = await balance();
  let next = 0;
  let credited = 0;
  const webhookLoad = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/payment/webhooks/sandbox`,
      method: 'POST',
      connections,
      duration,
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => {
            // Each request a different payment: every answer is a credit, never a repeat.
            const notification = notifications[next % notifications.length]!;
            next += 1;
            return { ...request, body: notification.body, headers: { ...request.headers, 'sandbox-signature': notification.signature } };
          },
          onResponse: (status, body) => {
            if (status === 200) credited += (JSON.parse(body) as { data: { changed: number } }).data.changed;
          },
        },
      ],
    });
  const webhook = await measuredLoad(webhookLoad, Math.min(seconds, 5));
  const grown = (await balance()) - before;
  // Every entry but the sign-up bonus is a top-up: one per payment notified, whatever the load
  // stopped in the middle of (autocannon does not report answers in flight when a run ends).
  const history = (await (await fetch(`${url}/api/v1/tokens/history?page_size=1`, { headers: auth })).json()) as { meta: { total: number } };
  const entries = history.meta.total - 1;
  return {
    topUp,
    webhook,
    credits: entries,
    creditedExactly: grown === entries * TOP_UP.token_amount && entries >= credited && entries <= Math.min(next, notifications.length),
  };
}
