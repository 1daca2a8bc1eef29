// Which shell draws an address: the public pages without Ionic, everything else in the Ionic app.
import { describe, expect, it } from 'vitest';
import { shellFor, startingPath } from '../../../src/app/shells';

describe('shellFor', () => {
  it('draws the landing page, the static public pages and unknown addresses without Ionic', () => {
    for (const path of ['/', '/shoes', '/contact_us', '/no/such/page', '/homes']) expect(shellFor(path), path).toBe('light');
  });

  it('draws the workspace and the forms in the Ionic app', () => {
    for (const path of ['/home', '/task', '/task/history', '/task/retry', '/material', '/feedback', '/verify-email', '/localpay/subscription', '/recharge/success']) {
      expect(shellFor(path), path).toBe('ionic');
    }
  });
});

describe('startingPath', () => {
  it('starts a visitor who opens a login-required route on the landing page', () => {
    expect(startingPath('/home', false)).toBe('/');
    expect(startingPath('/task/history', false)).toBe('/');
  });

  it('keeps the address for a signed-in seller, and public routes for anyone', () => {
    expect(startingPath('/home', true)).toBe('/home');
    expect(startingPath('/feedback', false)).toBe('/feedback');
    expect(startingPath('/shoes', false)).toBe('/shoes');
  });
});
