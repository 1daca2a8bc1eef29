// The scale bench's load: the big seller's lists and balance from 50 clients at once, each client
// going round pages spread from the first to the last, so a deep page is asked as often as the
// first.
import autocannon from 'autocannon';
import { MATERIAL_SECTIONS } from '../../contract/assets';
import { measuredLoad, type SignInLoad } from './auth';

/** What one load asked for, and how it went. */
export interface ListLoad extends SignInLoad {
  route: string;
  /** The pages the clients went round, and how many there are. */
  pages: number[];
  totalPages: number;
}

/** The routes measured: every list with its query, and the balance (one page). */
export const SCALE_ROUTES = [
  '/api/v1/content/tasks',
  '/api/v1/content/assets',
  ...MATERIAL_SECTIONS.map((section) => `/api/v1/content/assets?material_category=${section}`),
  '/api/v1/materials/list',
  '/api/v1/tokens/history',
  '/api/v1/tokens/balance',
] as const;

/** `count` page numbers from 1 to `last`, evenly apart, both ends included. */
export function spreadPages(last: number, count: number): number[] {
  if (last <= count) return Array.from({ length: last }, (_, i) => i + 1);
  return Array.from({ length: count }, (_, i) => 1 + Math.round((i * (last - 1)) / (count - 1)));
}

const withPage = (route: string, page: number) => `${route}${route.includes('?') ? '&' : '?'}page=${page}`;

/** How many pages the route has for this seller (1 for an answer without pages). */
export async function pagesOf(url: string, token: string, route: string): Promise<number> {
  const answer = await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`${route} answered ${answer.status}: ${await answer.text()}`);
  const body = (await answer.json()) as { meta?: { total_pages: number } };
  return body.meta?.total_pages ?? 1;
}

/** The route from `connections` clients for `seconds` (after a warm-up), each going round `pages`. */
export async function routeUnderLoad(url: string, token: string, route: string, connections = 50, seconds = 10): Promise<ListLoad> {
  const totalPages = await pagesOf(url, token, route);
  const pages = route.endsWith('/balance') ? [1] : spreadPages(totalPages, 16);
  const requests = pages.map((page) => ({ path: route.endsWith('/balance') ? route : withPage(route, page) }));
  const load = (duration: number) =>
    autocannon({ url, connections, duration, requests, headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });
  return { route, pages, totalPages, ...(await measuredLoad(load, seconds)) };
}
