// Ozon's Seller API: a seller's Client-Id and Api-Key on every call. /v1/roles says what the key
// may do and until when; pictures need the method /v2/product/pictures/import.
import { PRODUCT_PAGE_SIZE, type StoreProductPage } from '../../../contract/publisher';
import { answerText, retryAfterSeconds, StoreRefused, storeFetch, type StoreAccount } from './store';

export interface OzonKeys {
  clientId: string;
  apiKey: string;
}

/** The method that puts pictures on a product: a key without it cannot publish. */
const PICTURES_METHOD = '/v2/product/pictures/import';

/** A call to the Seller API; its errors turned into what the seller reads. */
export async function ozonCall<T>(base: string, keys: OzonKeys, path: string, body: object): Promise<T> {
  const answer = await storeFetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Client-Id': keys.clientId, 'Api-Key': keys.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.ok) return (await answer.json()) as T;
  if (answer.status === 429) throw new StoreRefused('busy', await answerText(answer), { seconds: retryAfterSeconds(answer.headers) });
  if (answer.status === 401 || answer.status === 403) throw new StoreRefused('wrong', await answerText(answer));
  throw new StoreRefused('unreachable', await answerText(answer));
}

interface Roles {
  roles?: { name?: string; methods?: string[] }[];
  expires_at?: string;
}

export async function checkOzon(base: string, keys: OzonKeys, now: Date): Promise<StoreAccount> {
  const answer = await ozonCall<Roles>(base, keys, '/v1/roles', {});
  const expiresAt = answer.expires_at ? new Date(answer.expires_at) : null;
  if (expiresAt && expiresAt <= now) throw new StoreRefused('expired', `the key expired at ${answer.expires_at}`, { date: expiresAt });
  const methods = (answer.roles ?? []).flatMap((role) => role.methods ?? []);
  if (!methods.includes(PICTURES_METHOD)) throw new StoreRefused('scope', `the key's roles lack ${PICTURES_METHOD}`, { scope: 'SCOPE_PRODUCTS' });
  return { accountId: keys.clientId, accountName: `Ozon ${keys.clientId}`, expiresAt };
}

interface ProductList {
  result?: { items?: { product_id: number; offer_id: string }[]; last_id?: string };
}
interface ProductInfo {
  items?: { id: number; offer_id: string; name?: string; images?: string[]; primary_image?: string[] }[];
}

/** A page of the seller's products; `q` finds an article (offer_id) exactly, as Ozon's filter does. */
export async function ozonProducts(base: string, keys: OzonKeys, q: string, cursor: string | null): Promise<StoreProductPage> {
  const list = await ozonCall<ProductList>(base, keys, '/v3/product/list', {
    filter: { visibility: 'ALL', ...(q ? { offer_id: [q] } : {}) },
    last_id: cursor ?? '',
    limit: PRODUCT_PAGE_SIZE,
  });
  const found = list.result?.items ?? [];
  if (found.length === 0) return { items: [], next_cursor: null };
  const info = await ozonCall<ProductInfo>(base, keys, '/v3/product/info/list', { product_id: found.map((item) => String(item.product_id)) });
  const byId = new Map((info.items ?? []).map((item) => [item.id, item]));
  return {
    items: found.map((item) => {
      const product = byId.get(item.product_id);
      const images = product?.images ?? [];
      return {
        id: String(item.product_id),
        article: item.offer_id,
        title: product?.name ?? item.offer_id,
        thumbnail: product?.primary_image?.[0] ?? images[0] ?? null,
        pictures: images.length,
        has_video: false,
      };
    }),
    next_cursor: found.length === PRODUCT_PAGE_SIZE && list.result?.last_id ? list.result.last_id : null,
  };
}
