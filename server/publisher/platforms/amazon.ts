// Amazon's Selling Partner API for a seller's own private app (self-authorisation): the app's
// client id and secret and the seller's refresh token buy an access token from Login with
// Amazon; the Listings Items API (2021-08-01) then reads and changes the seller's listings.
import { PRODUCT_PAGE_SIZE, type ConnectRequest, type StoreProductPage } from '../../../contract/publisher';
import type { PublisherOptions } from '../../config/env';
import { answerText, retryAfterSeconds, StoreRefused, storeFetch, type StoreAccount } from './store';

type AmazonKeys = Omit<Extract<ConnectRequest, { platform: 'amazon' }>, 'platform'>;

/** Each region's own endpoint (Amazon's SP-API endpoints table). */
const REGION_ENDPOINTS: Record<AmazonKeys['region'], string> = {
  na: 'https://sellingpartnerapi-na.amazon.com',
  eu: 'https://sellingpartnerapi-eu.amazon.com',
  fe: 'https://sellingpartnerapi-fe.amazon.com',
};

export const amazonApi = (options: PublisherOptions, keys: AmazonKeys) => options.amazonApiUrl ?? REGION_ENDPOINTS[keys.region];

/** An access token for the seller's app (an hour's worth, as LWA gives them). */
export async function amazonAccessToken(options: PublisherOptions, keys: AmazonKeys): Promise<string> {
  const answer = await storeFetch(options.amazonTokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: keys.refresh_token, client_id: keys.client_id, client_secret: keys.client_secret }),
  });
  if (answer.ok) {
    const token = ((await answer.json()) as { access_token?: unknown }).access_token;
    if (typeof token === 'string' && token) return token;
    throw new StoreRefused('unreachable', 'Login with Amazon answered without an access token');
  }
  if (answer.status === 429) throw new StoreRefused('busy', await answerText(answer), { seconds: retryAfterSeconds(answer.headers) });
  if (answer.status === 400 || answer.status === 401) throw new StoreRefused('wrong', await answerText(answer));
  throw new StoreRefused('unreachable', await answerText(answer));
}

/** searchListingsItems over the seller's listings in the marketplace. */
async function searchListings(options: PublisherOptions, keys: AmazonKeys, params: Record<string, string>): Promise<Response> {
  const token = await amazonAccessToken(options, keys);
  const query = new URLSearchParams({ marketplaceIds: keys.marketplace_id, ...params });
  const answer = await storeFetch(`${amazonApi(options, keys)}/listings/2021-08-01/items/${encodeURIComponent(keys.seller_id)}?${query}`, {
    headers: { 'x-amz-access-token': token, accept: 'application/json' },
  });
  if (answer.status === 429) throw new StoreRefused('busy', await answerText(answer), { seconds: retryAfterSeconds(answer.headers) });
  // The token is good: a 403 now is a seller id not the app's, or an app without the listings role.
  if (answer.status === 403) throw new StoreRefused('scope', await answerText(answer), { scope: 'Product Listing' });
  if (answer.status === 400) throw new StoreRefused('wrong', await answerText(answer));
  if (!answer.ok) throw new StoreRefused('unreachable', await answerText(answer));
  return answer;
}

/** The keys open the seller's listings in the marketplace: one listing is read to prove it. */
export async function checkAmazon(options: PublisherOptions, keys: AmazonKeys): Promise<StoreAccount> {
  await searchListings(options, keys, { pageSize: '1' });
  return { accountId: `${keys.seller_id}:${keys.marketplace_id}`, accountName: `${keys.seller_id} · ${keys.marketplace_id}`, expiresAt: null };
}

/** The image attributes a listing's pictures live in: the main one and eight others. */
export const IMAGE_ATTRIBUTES = ['main_product_image_locator', ...Array.from({ length: 8 }, (_, i) => `other_product_image_locator_${i + 1}`)];

interface ListingsPage {
  items?: { sku: string; summaries?: { itemName?: string; mainImage?: { link?: string } }[]; attributes?: Record<string, unknown[]> }[];
  pagination?: { nextToken?: string };
}

/**
 * A page of the seller's listings. The API has no text search: `q` finds a SKU exactly (its
 * `identifiers` of type SKU).
 */
export async function amazonProducts(options: PublisherOptions, keys: AmazonKeys, q: string, cursor: string | null): Promise<StoreProductPage> {
  const answer = await searchListings(options, keys, {
    includedData: 'summaries,attributes',
    pageSize: String(PRODUCT_PAGE_SIZE),
    ...(q ? { identifiers: q, identifiersType: 'SKU' } : {}),
    ...(cursor ? { pageToken: cursor } : {}),
  });
  const page = (await answer.json()) as ListingsPage;
  return {
    items: (page.items ?? []).map((item) => ({
      id: item.sku,
      article: item.sku,
      title: item.summaries?.[0]?.itemName ?? item.sku,
      thumbnail: item.summaries?.[0]?.mainImage?.link ?? null,
      pictures: IMAGE_ATTRIBUTES.filter((name) => (item.attributes?.[name]?.length ?? 0) > 0).length,
      has_video: false,
    })),
    next_cursor: page.pagination?.nextToken ?? null,
  };
}
