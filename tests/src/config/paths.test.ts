// Every route of SPEC §2 is registered, with the login requirement SPEC gives it.
import { describe, expect, it } from 'vitest';
import { LOCAL_PROVIDER, ROUTES, legalPath } from '../../../src/config/paths';

const PUBLIC = ['/', '/shoes', '/verify-email', '/contact_us', '/feedback'];
// SPEC §2's login-required routes, and /stores: where a seller connects the stores the Publisher (§7) publishes to.
const LOGIN_REQUIRED = [
  '/home',
  '/task/retry',
  '/task',
  '/task/history',
  '/material',
  '/stores',
  '/image/edit',
  '/editor',
  '/subscription',
  '/upgrade',
  '/recharge',
  '/recharge/result',
  '/recharge/success',
  '/recharge/cancel',
  '/consumption/history',
  `/${LOCAL_PROVIDER}/subscription`,
  '/subscription/manage',
  '/subscription/result',
  '/subscription/success',
  '/subscription/cancel',
];
const NAMED = [
  'home',
  'subscription',
  'upgrade',
  'recharge',
  'shoes',
  'task_history',
  'material',
  'task_retry',
  'image_edit',
  'editor',
  'subscription_manage',
  'subscription_result',
  'local_subscription',
];

describe('the route table', () => {
  const routes = Object.values(ROUTES);

  it('has every public route of SPEC §2, open to visitors', () => {
    for (const path of PUBLIC) expect(routes.find((r) => r.path === path)?.auth, path).toBe(false);
  });

  it('has every login-required route of SPEC §2', () => {
    for (const path of LOGIN_REQUIRED) expect(routes.find((r) => r.path === path)?.auth, path).toBe(true);
  });

  it('has no route SPEC does not list', () => {
    expect(routes.map((r) => r.path).sort()).toEqual([...PUBLIC, ...LOGIN_REQUIRED].sort());
  });

  it('has the named routes', () => {
    for (const name of NAMED) expect(Object.keys(ROUTES), name).toContain(name);
  });

  it('links legal pages per language', () => {
    expect(legalPath('en', 'privacy')).toBe('/legal/en/privacy.html');
  });
});
