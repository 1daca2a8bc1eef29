import { describe, expect, it } from 'vitest';
import { isApiPath, isClientRoutePath } from '../../contract/routes';

describe('isApiPath', () => {
  it('matches the API and nothing that only starts like it', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/v1/tokens/balance')).toBe(true);
    expect(isApiPath('/apiary')).toBe(false);
  });
});

describe('isClientRoutePath', () => {
  it.each(['/', '/shoes', '/task/history', '/localpay/subscription', '/recharge/success', '/sandbox', '/no/such/page'])('%s is a client route', (path) => {
    expect(isClientRoutePath(path)).toBe(true);
  });

  it.each(['/api/v1/x', '/legal/ru/terms.html', '/legal/en/missing', '/assets/index-1.js', '/sw.js', '/sandbox/checkout/sbx_1'])(
    '%s is not',
    (path) => {
      expect(isClientRoutePath(path)).toBe(false);
    },
  );
});
