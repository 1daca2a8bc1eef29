// The Amazon Selling Partner API stand-in, through plain fetch: Login with Amazon's token exchange,
// the Listings Items API's search, get and patch as their model describes them, the pictures it
// downloads and checks after accepting a patch, its refusals, throttling and lost answers.
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AMAZON_ISSUE_CODES, startFakeAmazon } from '../support/fakes/amazon';
import { answer, localServer, type LocalServer } from '../support/local-http';

type Fake = Awaited<ReturnType<typeof startFakeAmazon>>;
type Credentials = ReturnType<Fake['addSeller']>;

const exchange = (fake: Fake, form: Record<string, string>) =>
  fetch(fake.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

async function accessToken(fake: Fake, credentials: Credentials): Promise<string> {
  const answered = await exchange(fake, {
    grant_type: 'refresh_token',
    refresh_token: credentials.refreshToken,
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });
  expect(answered.status).toBe(200);
  return ((await answered.json()) as { access_token: string }).access_token;
}

const sp = (fake: Fake, token: string | null, path: string, init: RequestInit = {}) =>
  fetch(`${fake.origin}/listings/2021-08-01/items/${path}`, {
    ...init,
    headers: { ...(token ? { 'x-amz-access-token': token } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });

const patch = (fake: Fake, token: string, sellerId: string, sku: string, body: unknown) =>
  sp(fake, token, `${sellerId}/${encodeURIComponent(sku)}?marketplaceIds=${fake.marketplaceId}`, { method: 'PATCH', body: JSON.stringify(body) });

/** A product-ish shape on the given ground, `side` pixels square. */
const picture = (side: number, ground: string) =>
  sharp({ create: { width: side, height: side, channels: 3, background: ground } })
    .composite([
      {
        input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><ellipse cx="${side / 2}" cy="${side / 2}" rx="${side * 0.35}" ry="${side * 0.2}" fill="#7a3b1e"/></svg>`),
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();

let fake: Fake;
let seller: Credentials;
let token: string;

beforeEach(async () => {
  fake = await startFakeAmazon();
  seller = fake.addSeller({
    name: 'Stiefel & Co',
    listings: [
      { sku: 'BOOT-1', itemName: 'Chelsea boot, brown', pictures: 2 },
      { sku: 'BOOT 2/B', itemName: 'Lace-up boot', productType: 'BOOT', pictures: 0 },
    ],
  });
  token = await accessToken(fake, seller);
});
afterEach(() => fake.close());

describe('Login with Amazon', () => {
  it('exchanges the refresh token for a bearer access token of an hour', async () => {
    const answered = await exchange(fake, { grant_type: 'refresh_token', refresh_token: seller.refreshToken, client_id: seller.clientId, client_secret: seller.clientSecret });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await answered.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^Atza\|/), refresh_token: seller.refreshToken, token_type: 'bearer', expires_in: 3600 });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/auth/o2/token' });
  });

  it('refuses a wrong client secret as invalid_client, and a refresh token of another client as invalid_grant', async () => {
    const wrong = await exchange(fake, { grant_type: 'refresh_token', refresh_token: seller.refreshToken, client_id: seller.clientId, client_secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });

    const other = fake.addSeller({ name: 'Other' });
    const crossed = await exchange(fake, { grant_type: 'refresh_token', refresh_token: seller.refreshToken, client_id: other.clientId, client_secret: other.clientSecret });
    expect(crossed.status).toBe(400);
    expect(((await crossed.json()) as { error: string }).error).toBe('invalid_grant');

    const missing = await exchange(fake, { grant_type: 'refresh_token', client_id: seller.clientId, client_secret: seller.clientSecret });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('refuses a revoked refresh token as invalid_grant, and the access tokens it gave', async () => {
    fake.revoke(seller.refreshToken);
    const answered = await exchange(fake, { grant_type: 'refresh_token', refresh_token: seller.refreshToken, client_id: seller.clientId, client_secret: seller.clientSecret });
    expect(answered.status).toBe(400);
    expect(await answered.json()).toEqual({
      error: 'invalid_grant',
      error_description: "The request has an invalid grant parameter : refresh_token. User may have revoked or didn't grant the permission.",
    });
    const refused = await sp(fake, token, `${seller.sellerId}?marketplaceIds=${fake.marketplaceId}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      errors: [{ code: 'Unauthorized', message: 'Access to requested resource is denied.', details: 'The access token you provided is revoked, malformed or invalid.' }],
    });
  });
});

describe('searchListingsItems and getListingsItem', () => {
  it('pages through the listings, 20 at most a page, and finds SKUs by identifiers', async () => {
    const big = fake.addSeller({ name: 'Big', listings: Array.from({ length: 25 }, (_, i) => ({ sku: `S-${String(i).padStart(2, '0')}`, itemName: `Shoe ${i}` })) });
    const bigToken = await accessToken(fake, big);
    const first = await sp(fake, bigToken, `${big.sellerId}?marketplaceIds=${fake.marketplaceId}&pageSize=20&sortBy=sku&sortOrder=ASC`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-amzn-ratelimit-limit')).toBe('5.0');
    const page1 = (await first.json()) as { numberOfResults: number; pagination: { nextToken?: string }; items: { sku: string; summaries: unknown[] }[] };
    expect(page1.numberOfResults).toBe(25);
    expect(page1.items.map((item) => item.sku)).toEqual(Array.from({ length: 20 }, (_, i) => `S-${String(i).padStart(2, '0')}`));
    expect(page1.items[0]!.summaries).toHaveLength(1);
    const second = await sp(fake, bigToken, `${big.sellerId}?marketplaceIds=${fake.marketplaceId}&pageSize=20&sortBy=sku&sortOrder=ASC&pageToken=${page1.pagination.nextToken}`);
    const page2 = (await second.json()) as { pagination: { nextToken?: string; previousToken?: string }; items: { sku: string }[] };
    expect(page2.items.map((item) => item.sku)).toEqual(['S-20', 'S-21', 'S-22', 'S-23', 'S-24']);
    expect(page2.pagination.nextToken).toBeUndefined();
    expect(page2.pagination.previousToken).toEqual(expect.any(String));

    // The default: ten a page, the last updated first.
    const newest = (await (await sp(fake, bigToken, `${big.sellerId}?marketplaceIds=${fake.marketplaceId}`)).json()) as { items: { sku: string }[] };
    expect(newest.items.map((item) => item.sku)).toEqual(Array.from({ length: 10 }, (_, i) => `S-${24 - i}`));

    const found = await sp(fake, bigToken, `${big.sellerId}?marketplaceIds=${fake.marketplaceId}&identifiers=S-03,S-17,NOPE&identifiersType=SKU`);
    expect(((await found.json()) as { items: { sku: string }[] }).items.map((item) => item.sku).sort()).toEqual(['S-03', 'S-17']);

    const tooBig = await sp(fake, bigToken, `${big.sellerId}?marketplaceIds=${fake.marketplaceId}&pageSize=21`);
    expect(tooBig.status).toBe(400);
    expect(((await tooBig.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('InvalidInput');
    // Five searches emptied the bucket (rate 5 a second, burst 5): a fifth of a second refills one.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const untyped = await sp(fake, bigToken, `${big.sellerId}?marketplaceIds=${fake.marketplaceId}&identifiers=S-03`);
    expect(untyped.status).toBe(400);
  });

  it('answers one listing with its summaries, image attributes and issues, and 404 for a SKU it has not', async () => {
    const answered = await sp(fake, token, `${seller.sellerId}/BOOT-1?marketplaceIds=${fake.marketplaceId}&includedData=summaries,attributes,issues`);
    expect(answered.status).toBe(200);
    const item = (await answered.json()) as {
      sku: string;
      summaries: { marketplaceId: string; asin: string; productType: string; itemName: string; status: string[]; mainImage: { link: string; height: number; width: number } }[];
      attributes: Record<string, { marketplace_id: string; media_location: string }[]>;
      issues: unknown[];
    };
    expect(item.sku).toBe('BOOT-1');
    expect(item.summaries[0]).toMatchObject({ marketplaceId: 'A1PA6795UKMFR9', asin: expect.stringMatching(/^B0[A-Z0-9]{8}$/), productType: 'SHOES', itemName: 'Chelsea boot, brown', status: ['BUYABLE', 'DISCOVERABLE'] });
    expect(item.summaries[0]!.mainImage).toMatchObject({ height: 1000, width: 1000 });
    expect(item.attributes.main_product_image_locator).toEqual([{ marketplace_id: fake.marketplaceId, media_location: `${fake.origin}/images/BOOT-1/0.jpg` }]);
    expect(item.attributes.other_product_image_locator_1).toEqual([{ marketplace_id: fake.marketplaceId, media_location: `${fake.origin}/images/BOOT-1/1.jpg` }]);
    expect(item.attributes.other_product_image_locator_2).toBeUndefined();
    expect(item.issues).toEqual([]);

    // The seeded main picture is served, a JPEG on pure white.
    const main = await fetch(item.attributes.main_product_image_locator![0]!.media_location);
    expect(main.headers.get('content-type')).toBe('image/jpeg');
    const { data } = await sharp(Buffer.from(await main.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].every((channel) => channel >= 252)).toBe(true);

    // Only summaries unless asked; a SKU with a slash, encoded; a listing without pictures has the issue.
    const bare = (await (await sp(fake, token, `${seller.sellerId}/${encodeURIComponent('BOOT 2/B')}?marketplaceIds=${fake.marketplaceId}`)).json()) as Record<string, unknown>;
    expect(Object.keys(bare).sort()).toEqual(['sku', 'summaries']);
    const bareIssues = (await (await sp(fake, token, `${seller.sellerId}/${encodeURIComponent('BOOT 2/B')}?marketplaceIds=${fake.marketplaceId}&includedData=issues`)).json()) as { issues: { code: string }[] };
    expect(bareIssues.issues.map((issue) => issue.code)).toEqual([AMAZON_ISSUE_CODES.mainImageMissing]);

    const missing = await sp(fake, token, `${seller.sellerId}/NOPE?marketplaceIds=${fake.marketplaceId}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-amzn-ratelimit-limit')).toBe('5.0');
    expect(await missing.json()).toEqual({ errors: [{ code: 'NOT_FOUND', message: `SKU 'NOPE' not found in marketplace ${fake.marketplaceId}`, details: '' }] });
  });
});

describe('patchListingsItem', () => {
  let pictures: LocalServer;
  beforeEach(async () => {
    const made = { '/white.jpg': await picture(1200, '#ffffff'), '/grey.jpg': await picture(1200, '#d8d8d8'), '/small.jpg': await picture(300, '#ffffff') };
    pictures = await localServer((request, response) => {
      const bytes = made[request.url as keyof typeof made];
      if (bytes) answer(response, 200, bytes, { 'content-type': 'image/jpeg' });
      else answer(response, 404, 'not found');
    });
  });
  afterEach(() => pictures.close());

  const replace = (attribute: string, file: string) => ({
    op: 'replace',
    path: `/attributes/${attribute}`,
    value: [{ marketplace_id: fake.marketplaceId, media_location: `${pictures.origin}/${file}` }],
  });

  it('accepts new pictures, then takes the good ones and leaves the others with issues', async () => {
    fake.applyAfter(200);
    const answered = await patch(fake, token, seller.sellerId, 'BOOT-1', {
      productType: 'SHOES',
      patches: [replace('main_product_image_locator', 'grey.jpg'), replace('other_product_image_locator_1', 'white.jpg'), replace('other_product_image_locator_2', 'small.jpg')],
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-amzn-ratelimit-limit')).toBe('5.0');
    expect(await answered.json()).toEqual({ sku: 'BOOT-1', status: 'ACCEPTED', submissionId: expect.stringMatching(/^[0-9a-f]{32}$/), issues: [] });
    // Not yet: Amazon applies a submission later.
    expect(fake.listings(seller.sellerId)[0]!.images.others[0]).toBe(`${fake.origin}/images/BOOT-1/1.jpg`);

    await fake.settled();
    expect(pictures.seen.map((seen) => seen.path).sort()).toEqual(['/grey.jpg', '/small.jpg', '/white.jpg']);
    const [listing] = fake.listings(seller.sellerId);
    expect(listing!.images.main).toBe(`${fake.origin}/images/BOOT-1/0.jpg`);
    expect(listing!.images.others.slice(0, 3)).toEqual([`${pictures.origin}/white.jpg`, null, null]);
    expect(listing!.issues.map((issue) => [issue.code, issue.severity, issue.attributeNames])).toEqual([
      [AMAZON_ISSUE_CODES.nonWhiteBackground, 'ERROR', ['main_product_image_locator']],
      [AMAZON_ISSUE_CODES.imageTooSmall, 'ERROR', ['other_product_image_locator_2']],
    ]);
    const item = (await (await sp(fake, token, `${seller.sellerId}/BOOT-1?marketplaceIds=${fake.marketplaceId}&includedData=attributes,issues`)).json()) as {
      attributes: Record<string, { media_location: string }[]>;
      issues: { code: string; categories: string[] }[];
    };
    expect(item.attributes.other_product_image_locator_1![0]!.media_location).toBe(`${pictures.origin}/white.jpg`);
    expect(item.issues.map((issue) => issue.categories)).toEqual([['INVALID_IMAGE'], ['INVALID_IMAGE']]);

    // A white main picture is taken, the issue about the grey one goes, and Amazon's copy is served.
    fake.applyAfter(0);
    await patch(fake, token, seller.sellerId, 'BOOT-1', { productType: 'SHOES', patches: [replace('main_product_image_locator', 'white.jpg')] });
    await fake.settled();
    const after = fake.listings(seller.sellerId)[0]!;
    expect(after.images.main).toBe(`${pictures.origin}/white.jpg`);
    expect(after.issues.map((issue) => issue.code)).toEqual([AMAZON_ISSUE_CODES.imageTooSmall]);
    const summary = (await (await sp(fake, token, `${seller.sellerId}/BOOT-1?marketplaceIds=${fake.marketplaceId}`)).json()) as { summaries: { mainImage: { link: string; width: number } }[] };
    expect(summary.summaries[0]!.mainImage.width).toBe(1200);
    expect(summary.summaries[0]!.mainImage.link.startsWith(`${fake.origin}/media/`)).toBe(true);
    const copy = Buffer.from(await (await fetch(summary.summaries[0]!.mainImage.link)).arrayBuffer());
    expect(copy.equals(await picture(1200, '#ffffff'))).toBe(true);
  });

  it('answers INVALID for an attribute it has not and a wrong product type, and 400 for a body it cannot read', async () => {
    const answered = await patch(fake, token, seller.sellerId, 'BOOT-1', {
      productType: 'SHOES',
      patches: [{ op: 'replace', path: '/attributes/item_name', value: [{ marketplace_id: fake.marketplaceId, value: 'x' }] }, replace('other_product_image_locator_1', 'white.jpg')],
    });
    expect(answered.status).toBe(200);
    const body = (await answered.json()) as { status: string; issues: { code: string; message: string; attributeNames: string[] }[] };
    expect(body.status).toBe('INVALID');
    expect(body.issues).toEqual([{ code: '90000900', message: 'The attributes are invalid.', severity: 'ERROR', attributeNames: ['item_name'], categories: ['INVALID_ATTRIBUTE'] }]);

    const typed = (await (await patch(fake, token, seller.sellerId, 'BOOT-1', { productType: 'BOOT', patches: [replace('other_product_image_locator_1', 'white.jpg')] })).json()) as {
      status: string;
      issues: { code: string }[];
    };
    expect(typed.status).toBe('INVALID');
    expect(typed.issues.map((issue) => issue.code)).toEqual([AMAZON_ISSUE_CODES.productTypeMismatch]);

    await fake.settled();
    expect(pictures.seen).toEqual([]);
    expect(fake.listings(seller.sellerId)[0]!.images.others[0]).toBe(`${fake.origin}/images/BOOT-1/1.jpg`);

    const unreadable = await sp(fake, token, `${seller.sellerId}/BOOT-1?marketplaceIds=${fake.marketplaceId}`, { method: 'PATCH', body: '{"patches": "all"}' });
    expect(unreadable.status).toBe(400);
    expect(((await unreadable.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('InvalidInput');
  });

  it('applies a submission whose answer was lost', async () => {
    fake.loseNextAnswers(1);
    await expect(patch(fake, token, seller.sellerId, 'BOOT-1', { productType: 'SHOES', patches: [replace('other_product_image_locator_2', 'white.jpg')] })).rejects.toThrow();
    await fake.settled();
    expect(fake.listings(seller.sellerId)[0]!.images.others[1]).toBe(`${pictures.origin}/white.jpg`);
    // The next answer arrives.
    expect((await sp(fake, token, `${seller.sellerId}/BOOT-1?marketplaceIds=${fake.marketplaceId}`)).status).toBe(200);
  });
});

describe('refusals', () => {
  it('refuses another seller’s id, a missing token and an expired one with 403 Unauthorized', async () => {
    const other = fake.addSeller({ name: 'Other', listings: [{ sku: 'X-1', itemName: 'Sandal' }] });
    const crossed = await sp(fake, token, `${other.sellerId}/X-1?marketplaceIds=${fake.marketplaceId}`);
    expect(crossed.status).toBe(403);
    expect(crossed.headers.get('x-amzn-ratelimit-limit')).toBeNull();
    expect(crossed.headers.get('x-amzn-requestid')).toEqual(expect.any(String));
    expect(await crossed.json()).toEqual({ errors: [{ code: 'Unauthorized', message: 'Access to requested resource is denied.', details: '' }] });

    const anonymous = await sp(fake, null, `${seller.sellerId}/BOOT-1?marketplaceIds=${fake.marketplaceId}`);
    expect(anonymous.status).toBe(403);
    expect(((await anonymous.json()) as { errors: { details: string }[] }).errors[0]!.details).toBe('Access token is missing in the request header.');

    const brief = await startFakeAmazon({ accessTokenSeconds: 1 });
    try {
      const credentials = brief.addSeller({ name: 'Brief', listings: [{ sku: 'B-1', itemName: 'Clog' }] });
      const shortLived = await accessToken(brief, credentials);
      expect((await sp(brief, shortLived, `${credentials.sellerId}/B-1?marketplaceIds=${brief.marketplaceId}`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await sp(brief, shortLived, `${credentials.sellerId}/B-1?marketplaceIds=${brief.marketplaceId}`);
      expect(expired.status).toBe(403);
      expect(await expired.json()).toEqual({ errors: [{ code: 'Unauthorized', message: 'Access to requested resource is denied.', details: 'The access token you provided has expired.' }] });
    } finally {
      await brief.close();
    }
  });

  it('throttles past the usage plan with 429 QuotaExceeded, and fails as told', async () => {
    const slow = await startFakeAmazon({ ratePerSecond: 1 });
    try {
      const credentials = slow.addSeller({ name: 'Slow', listings: [{ sku: 'S-1', itemName: 'Mule' }] });
      const slowToken = await accessToken(slow, credentials);
      const path = `${credentials.sellerId}/S-1?marketplaceIds=${slow.marketplaceId}`;
      const first = await sp(slow, slowToken, path);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-amzn-ratelimit-limit')).toBe('1.0');
      const throttled = await sp(slow, slowToken, path);
      expect(throttled.status).toBe(429);
      expect(await throttled.json()).toEqual({ errors: [{ code: 'QuotaExceeded', message: 'You exceeded your quota for the requested resource.', details: '' }] });
      // Another operation has a bucket of its own.
      expect((await sp(slow, slowToken, `${credentials.sellerId}?marketplaceIds=${slow.marketplaceId}`)).status).toBe(200);
    } finally {
      await slow.close();
    }

    fake.failNext(1, 429);
    fake.failNext(1, 500, 'Down for a moment.');
    const path = `${seller.sellerId}/BOOT-1?marketplaceIds=${fake.marketplaceId}`;
    expect(((await (await sp(fake, token, path)).json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('QuotaExceeded');
    const down = await sp(fake, token, path);
    expect(down.status).toBe(500);
    expect(await down.json()).toEqual({ errors: [{ code: 'InternalFailure', message: 'Down for a moment.', details: '' }] });
    expect((await sp(fake, token, path)).status).toBe(200);
  });
});
