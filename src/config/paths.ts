// The route table (SPEC §2): every route with its name, path, whether it needs a signed-in
// seller, and the translation key of its title.
import type { ParseKeys } from 'i18next';

/** The local payment provider's path segment in its subscription checkout route. */
export const LOCAL_PROVIDER = 'localpay';

export interface RouteDef {
  name: string;
  path: string;
  auth: boolean;
  title: ParseKeys;
}

const route = (name: string, path: string, auth: boolean): RouteDef => ({
  name,
  path,
  auth,
  title: `routes.${name}` as ParseKeys,
});

export const ROUTES = {
  landing: route('landing', '/', false),
  shoes: route('shoes', '/shoes', false),
  verify_email: route('verify_email', '/verify-email', false),
  contact_us: route('contact_us', '/contact_us', false),
  feedback: route('feedback', '/feedback', false),

  home: route('home', '/home', true),
  task_retry: route('task_retry', '/task/retry', true),
  task: route('task', '/task', true),
  task_history: route('task_history', '/task/history', true),
  material: route('material', '/material', true),
  stores: route('stores', '/stores', true),
  image_edit: route('image_edit', '/image/edit', true),
  editor: route('editor', '/editor', true),
  subscription: route('subscription', '/subscription', true),
  upgrade: route('upgrade', '/upgrade', true),
  recharge: route('recharge', '/recharge', true),
  recharge_result: route('recharge_result', '/recharge/result', true),
  recharge_success: route('recharge_success', '/recharge/success', true),
  recharge_cancel: route('recharge_cancel', '/recharge/cancel', true),
  consumption_history: route('consumption_history', '/consumption/history', true),
  local_subscription: route('local_subscription', `/${LOCAL_PROVIDER}/subscription`, true),
  subscription_manage: route('subscription_manage', '/subscription/manage', true),
  subscription_result: route('subscription_result', '/subscription/result', true),
  subscription_success: route('subscription_success', '/subscription/success', true),
  subscription_cancel: route('subscription_cancel', '/subscription/cancel', true),
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof ROUTES;

export const paths = Object.fromEntries(
  Object.entries(ROUTES).map(([name, def]) => [name, def.path]),
) as { [K in RouteName]: (typeof ROUTES)[K]['path'] };

/** The task page for a content type (the workspace tiles, a queued task taken back to edit). */
export function taskPath(type: 'person' | 'product' | 'outfit' | 'video'): string {
  return `${paths.task}?type=${type}`;
}

/** The re-upload form for a task whose photos were rejected. */
export function taskRetryPath(taskId: string): string {
  return `${paths.task_retry}?task_id=${encodeURIComponent(taskId)}`;
}

/** Static legal pages, one folder per language, served from public/legal. */
export function legalPath(locale: string, page: 'terms' | 'privacy'): string {
  return `/legal/${locale}/${page}.html`;
}

export const SUPPORT_EMAIL = 'support@solestudio.app';
