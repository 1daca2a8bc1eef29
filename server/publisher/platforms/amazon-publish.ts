// Putting results on an Amazon listing: its nine image attributes (the main one and eight others)
// are set with `replace` patches to links Amazon fetches (signed, expiring), and the rest kept,
// moved or deleted as the seller asked. The layout is kept before the patch goes, so a second run
// sends the same patch (the same values again change nothing). Amazon answers ACCEPTED or INVALID
// at once and applies later: the listing is read back until each of ours holds its attribute, or
// an issue names the attribute (the main image not on white, a picture too small).
import type { PublisherOptions } from '../../config/env';
import type { StoreKeys } from '../connections';
import { amazonAccessToken, amazonApi, IMAGE_ATTRIBUTES } from './amazon';
import { answerText, patiently, retryAfterSeconds, StoreRefused, storeFetch } from './store';

export interface AmazonItem {
  position: number;
  status: 'pending' | 'sent';
  sentUrl: string | null;
  url(): Promise<string | null>;
}

/** Which link each image attribute is to hold (null: none). */
export type AmazonLayout = Record<string, string | null>;

export interface AmazonContext {
  options: PublisherOptions;
  keys: StoreKeys<'amazon'>;
  sku: string;
  placement: 'main' | 'gallery';
  mode: 'append' | 'replace';
  layout: AmazonLayout | null;
  keep(layout: AmazonLayout): Promise<void>;
  record(position: number, fields: { status?: 'sent' | 'applied' | 'failed'; message?: string | null; remoteUrl?: string | null }): Promise<void>;
  wait(ms: number): Promise<void>;
  pollMs: number;
  applyWithinMs: number;
  tooMany: string;
}

export class AmazonNotAppliedYet extends Error {
  constructor() {
    super('Amazon has not applied the pictures yet');
    this.name = 'AmazonNotAppliedYet';
  }
}

interface Listing {
  summaries?: { productType?: string }[];
  attributes?: Record<string, { media_location?: string }[]>;
  issues?: { message: string; severity: string; attributeNames?: string[] }[];
}

async function listingCall(context: AmazonContext, method: 'GET' | 'PATCH', query: Record<string, string>, body?: object): Promise<Response> {
  const token = await amazonAccessToken(context.options, context.keys);
  const params = new URLSearchParams({ marketplaceIds: context.keys.marketplace_id, ...query });
  const answer = await storeFetch(`${amazonApi(context.options, context.keys)}/listings/2021-08-01/items/${encodeURIComponent(context.keys.seller_id)}/${encodeURIComponent(context.sku)}?${params}`, {
    method,
    headers: { 'x-amz-access-token': token, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (answer.ok || answer.status === 404) return answer;
  if (answer.status === 429) throw new StoreRefused('busy', await answerText(answer), { seconds: retryAfterSeconds(answer.headers) });
  if (answer.status === 403) throw new StoreRefused('scope', await answerText(answer), { scope: 'Product Listing' });
  throw new StoreRefused('unreachable', await answerText(answer));
}

const readListing = async (context: AmazonContext): Promise<Listing | null> => {
  const answer = await patiently(context.wait, () => listingCall(context, 'GET', { includedData: 'summaries,attributes,issues' }));
  return answer.status === 404 ? null : ((await answer.json()) as Listing);
};
const held = (listing: Listing, attribute: string) => listing.attributes?.[attribute]?.[0]?.media_location ?? null;

/** Sends what is still to send and records each picture's end. False when the listing does not exist. */
export async function publishToAmazon(context: AmazonContext, items: AmazonItem[]): Promise<boolean> {
  const listing = await readListing(context);
  if (!listing) return false;
  const ordered = [...items].sort((a, b) => a.position - b.position);
  const links = new Map<number, string>(ordered.flatMap((item) => (item.sentUrl ? [[item.position, item.sentUrl] as const] : [])));
  let layout = context.layout;
  if (!layout) {
    for (const item of ordered) {
      const url = await item.url();
      if (url) links.set(item.position, url);
      else await context.record(item.position, { status: 'failed', message: 'PUBLISH_ASSET_GONE' });
    }
    const ours = ordered.filter((item) => links.has(item.position));
    if (ours.length === 0) return true;
    const [main, ...others] = IMAGE_ATTRIBUTES.map((attribute) => held(listing, attribute));
    const oursLinks = ours.map((item) => links.get(item.position)!);
    const sequence =
      context.mode === 'replace'
        ? oursLinks
        : context.placement === 'main'
          ? [...oursLinks, ...[main, ...others].filter((link): link is string => !!link)]
          : [main ?? null, ...others.filter((link): link is string => !!link), ...oursLinks];
    const slots = sequence.slice(0, IMAGE_ATTRIBUTES.length);
    layout = Object.fromEntries(IMAGE_ATTRIBUTES.map((attribute, index) => [attribute, slots[index] ?? null]));
    await context.keep(layout);
    const placed = new Set(Object.values(layout));
    for (const item of ours) {
      const link = links.get(item.position)!;
      if (placed.has(link)) await context.record(item.position, { status: 'sent', remoteUrl: link });
      else await context.record(item.position, { status: 'failed', message: context.tooMany });
    }
  }
  const productType = listing.summaries?.[0]?.productType ?? 'PRODUCT';
  const patches = IMAGE_ATTRIBUTES.flatMap((attribute) => {
    const link = layout![attribute];
    if (link) return [{ op: 'replace', path: `/attributes/${attribute}`, value: [{ marketplace_id: context.keys.marketplace_id, media_location: link }] }];
    return held(listing, attribute) ? [{ op: 'delete', path: `/attributes/${attribute}` }] : [];
  });
  const waiting = ordered.filter((item) => links.has(item.position) && Object.values(layout!).includes(links.get(item.position)!));
  // Nothing to send when the listing already holds the layout (a second run after Amazon applied it).
  const differs = IMAGE_ATTRIBUTES.some((attribute) => held(listing, attribute) !== layout![attribute]);
  if (differs) {
    const answer = await patiently(context.wait, () => listingCall(context, 'PATCH', {}, { productType, patches }));
    const submitted = (await answer.json()) as { status?: string; issues?: { message: string; severity: string }[] };
    if (submitted.status !== 'ACCEPTED') {
      const why = (submitted.issues ?? []).filter((issue) => issue.severity === 'ERROR').map((issue) => issue.message).join(' ') || `Amazon answered ${submitted.status}`;
      for (const item of waiting) await context.record(item.position, { status: 'failed', message: why });
      return true;
    }
  }
  const deadline = Date.now() + context.applyWithinMs;
  const open = new Set(waiting.map((item) => item.position));
  // Issues the listing had before are not about ours (a main image missing, say).
  const issueKey = (issue: { message: string; attributeNames?: string[] }) => `${issue.attributeNames?.join(',') ?? ''}|${issue.message}`;
  const earlier = new Set((listing.issues ?? []).map(issueKey));
  for (;;) {
    const now = await readListing(context);
    for (const item of waiting) {
      if (!open.has(item.position)) continue;
      const link = links.get(item.position)!;
      const attribute = IMAGE_ATTRIBUTES.find((name) => layout![name] === link)!;
      const issue = now?.issues?.find((found) => found.severity === 'ERROR' && found.attributeNames?.includes(attribute) && !earlier.has(issueKey(found)));
      if (now && held(now, attribute) === link) {
        open.delete(item.position);
        await context.record(item.position, { status: 'applied', remoteUrl: link });
      } else if (issue) {
        open.delete(item.position);
        await context.record(item.position, { status: 'failed', message: issue.message });
      }
    }
    if (open.size === 0) return true;
    if (Date.now() >= deadline) throw new AmazonNotAppliedYet();
    await context.wait(context.pollMs);
  }
}
