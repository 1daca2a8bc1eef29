// The calls behind Stores and publishing (SPEC §7 Publisher): the platforms, the seller's
// connected stores, a store's product cards, and publications with each picture's fate.
import { z } from 'zod';
import { okEnvelope, pagedEnvelope } from '../../contract/envelope';
import {
  connectionSchema,
  platformSchema,
  PUBLICATIONS_PAGE_SIZE,
  publicationSchema,
  storeProductPageSchema,
  type ConnectRequest,
  type Platform,
  type PublishRequest,
} from '../../contract/publisher';
import { apiRequest } from '../lib/api-client';

const BASE = '/api/v1/publisher';
const platforms = okEnvelope(z.array(platformSchema));
const connections = okEnvelope(z.array(connectionSchema));
const connection = okEnvelope(connectionSchema);
const nothing = okEnvelope(z.null());
const products = okEnvelope(storeProductPageSchema);
const publication = okEnvelope(publicationSchema);
const publicationPage = pagedEnvelope(publicationSchema);

export async function getPlatforms(signal?: AbortSignal) {
  return (await apiRequest(`${BASE}/platforms`, { schema: platforms, signal })).data;
}

export async function listConnections(signal?: AbortSignal) {
  return (await apiRequest(`${BASE}/auth`, { schema: connections, signal })).data;
}

/** Connects a store; the keys are checked with the platform first (a refusal says what to fix). */
export async function connectStore(request: ConnectRequest) {
  return apiRequest(`${BASE}/auth`, { method: 'POST', body: request, schema: connection, timeoutMs: 40_000 });
}

export async function disconnectStore(id: string) {
  return apiRequest(`${BASE}/auth/${encodeURIComponent(id)}`, { method: 'DELETE', schema: nothing });
}

export async function listProducts(platform: Platform, connectionId: string, q: string, cursor: string | null, signal?: AbortSignal) {
  const query = { connection: connectionId, q, cursor: cursor ?? undefined };
  return (await apiRequest(`${BASE}/platforms/${platform}/products`, { schema: products, query, signal, timeoutMs: 30_000 })).data;
}

/** Starts a publication once per `key`: the same key again answers the same publication. */
export async function publish(request: PublishRequest, key: string) {
  return (await apiRequest(`${BASE}/publish`, { method: 'POST', body: request, schema: publication, headers: { 'Idempotency-Key': key } })).data;
}

export async function getPublication(id: string, signal?: AbortSignal) {
  return (await apiRequest(`${BASE}/publish/${encodeURIComponent(id)}`, { schema: publication, signal })).data;
}

export function listPublications(page: number, signal?: AbortSignal) {
  return apiRequest(`${BASE}/publish`, { schema: publicationPage, query: { page, page_size: PUBLICATIONS_PAGE_SIZE }, signal });
}
