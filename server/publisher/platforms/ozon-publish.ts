// Putting results on an Ozon product. Ozon fetches each picture from a URL (signed, expiring,
// on PUBLIC_URL or the bucket) and replaces all of a product's pictures with the list it is given
// (/v2/product/pictures/import, by offer_id), so the list is the product's current pictures with
// ours where the seller asked. The list is kept before it is sent, and the import's task id as
// soon as Ozon answers: a second run asks about that task, or, when the answer was lost, sends the
// very same list again (which changes nothing if the first one was taken). The import's end is
// read from /v1/product/import/info, and each picture's fate from /v2/product/pictures/info.
import { ozonCall, type OzonKeys } from './ozon';
import { patiently, StoreRefused } from './store';

export interface OzonItem {
  position: number;
  status: 'pending' | 'sent';
  /** The link it was sent as, once sent: Ozon names a refused picture by it. */
  sentUrl: string | null;
  /** A URL Ozon can fetch the picture from for the next hours; null when the result is gone. */
  url(): Promise<string | null>;
}

export interface OzonContext {
  base: string;
  keys: OzonKeys;
  productId: string;
  placement: 'main' | 'gallery';
  mode: 'append' | 'replace';
  /** What was sent for this publication before, if anything: the list, and the import's task once Ozon answered. */
  sent: OzonSent | null;
  keep(sent: OzonSent): Promise<void>;
  record(position: number, fields: { status?: 'sent' | 'applied' | 'failed'; message?: string | null; remoteUrl?: string | null }): Promise<void>;
  wait(ms: number): Promise<void>;
  pollMs: number;
  applyWithinMs: number;
  maxImages: number;
}

export interface OzonSent {
  offerId: string;
  wanted: string[];
  task: number | null;
}

export class OzonNotDoneYet extends Error {
  constructor() {
    super('Ozon has not finished the import yet');
    this.name = 'OzonNotDoneYet';
  }
}

interface ProductInfo {
  items?: { id: number; offer_id: string; images?: string[]; primary_image?: string[] }[];
}
interface ImportInfo {
  result?: { items?: { status?: string; errors?: { message?: string; description?: string }[] }[] };
}
interface PicturesInfo {
  items?: { product_id: number; primary_photo?: string[]; photo?: string[]; errors?: { url: string; message: string }[] }[];
}

/** Sends what is still to send and records each picture's end. False when the product does not exist. */
export async function publishToOzon(context: OzonContext, items: OzonItem[]): Promise<boolean> {
  const call = <T>(path: string, body: object) => patiently(context.wait, () => ozonCall<T>(context.base, context.keys, path, body));
  const info = await call<ProductInfo>('/v3/product/info/list', { product_id: [context.productId] });
  const product = info.items?.find((item) => String(item.id) === context.productId);
  if (!product) return false;
  const ordered = [...items].sort((a, b) => a.position - b.position);
  // The link each picture was sent as: made once, kept with the item, so a later run can read Ozon's verdict.
  const links = new Map<number, string>(ordered.flatMap((item) => (item.sentUrl ? [[item.position, item.sentUrl] as const] : [])));
  let sent = context.sent;
  if (!sent) {
    for (const item of ordered) {
      const url = await item.url();
      if (url) links.set(item.position, url);
      else await context.record(item.position, { status: 'failed', message: 'PUBLISH_ASSET_GONE' });
    }
    const ours = ordered.filter((item) => links.has(item.position)).map((item) => links.get(item.position)!);
    if (ours.length === 0) return true;
    const current = [...(product.primary_image ?? []), ...(product.images ?? []).filter((url) => !(product.primary_image ?? []).includes(url))];
    const wanted = context.mode === 'replace' ? ours : context.placement === 'main' ? [...ours, ...current] : [...current, ...ours];
    sent = { offerId: product.offer_id, wanted: wanted.slice(0, context.maxImages), task: null };
    await context.keep(sent);
    for (const item of ordered) if (links.has(item.position)) await context.record(item.position, { status: 'sent', remoteUrl: links.get(item.position)! });
  }
  if (sent.task === null) {
    const answer = await call<{ task_id?: number; result?: { task_id?: number } }>('/v2/product/pictures/import', {
      items: [{ offer_id: sent.offerId, primary_image: sent.wanted[0], images: sent.wanted.slice(1) }],
    });
    const task = answer.task_id ?? answer.result?.task_id;
    if (!task) throw new StoreRefused('unreachable', 'Ozon answered the import without a task_id');
    sent = { ...sent, task };
    await context.keep(sent);
  }
  const task = sent.task;

  const deadline = Date.now() + context.applyWithinMs;
  for (;;) {
    const state = await call<ImportInfo>('/v1/product/import/info', { task_id: task });
    const status = state.result?.items?.[0]?.status ?? 'pending';
    if (status !== 'pending') break;
    if (Date.now() >= deadline) throw new OzonNotDoneYet();
    await context.wait(context.pollMs);
  }
  const pictures = (await call<PicturesInfo>('/v2/product/pictures/info', { product_id: [context.productId] })).items?.find((item) => String(item.product_id) === context.productId);
  const errors = pictures?.errors ?? [];
  const now = [...(pictures?.primary_photo ?? []), ...(pictures?.photo ?? [])];
  const taken: OzonItem[] = [];
  for (const item of ordered) {
    const link = links.get(item.position);
    if (!link) continue;
    const refused = errors.find((error) => error.url === link);
    if (refused) await context.record(item.position, { status: 'failed', message: refused.message });
    else taken.push(item);
  }
  // Ozon re-hosts what it takes: ours are first (alone, or as the main one) or last, in the order sent.
  const hosted = context.mode === 'replace' || context.placement === 'main' ? now.slice(0, taken.length) : now.slice(now.length - taken.length);
  for (const [index, item] of taken.entries()) await context.record(item.position, { status: 'applied', remoteUrl: hosted[index] ?? null });
  return true;
}
