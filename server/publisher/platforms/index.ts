// Which adapter checks a platform's keys, each pointed where the configuration says (the real
// platforms by default, their stand-ins in tests and `npm run marketplace-fakes`).
import type { ConnectRequest, Platform, StoreProductPage } from '../../../contract/publisher';
import type { PublisherOptions } from '../../config/env';
import type { StoreKeys } from '../connections';
import { amazonProducts, checkAmazon } from './amazon';
import { checkOzon, ozonProducts } from './ozon';
import type { StoreAccount } from './store';
import { checkWildberries, wildberriesProducts } from './wildberries';

/** The demo store this server plays: one account per seller, never expiring. */
const DEMO_ACCOUNT: StoreAccount = { accountId: 'demo', accountName: 'SoleStudio demo', expiresAt: null };

/** Asks the platform whether the keys work and whose account they open; throws StoreRefused when not. */
export function checkKeys(options: PublisherOptions, request: ConnectRequest, now = new Date()): Promise<StoreAccount> {
  switch (request.platform) {
    case 'wildberries':
      return checkWildberries(options.wildberriesUrl, request.token, now);
    case 'ozon':
      return checkOzon(options.ozonUrl, { clientId: request.client_id, apiKey: request.api_key }, now);
    case 'amazon':
      return checkAmazon(options, request);
    case 'demo':
      return Promise.resolve(DEMO_ACCOUNT);
  }
}

/** A page of the cards on a store connected on one of the marketplaces. */
export function listProducts(options: PublisherOptions, platform: Exclude<Platform, 'demo'>, keys: StoreKeys, q: string, cursor: string | null): Promise<StoreProductPage> {
  switch (platform) {
    case 'wildberries':
      return wildberriesProducts(options.wildberriesUrl, (keys as StoreKeys<'wildberries'>).token, q, cursor);
    case 'ozon': {
      const ozon = keys as StoreKeys<'ozon'>;
      return ozonProducts(options.ozonUrl, { clientId: ozon.client_id, apiKey: ozon.api_key }, q, cursor);
    }
    case 'amazon':
      return amazonProducts(options, keys as StoreKeys<'amazon'>, q, cursor);
  }
}
