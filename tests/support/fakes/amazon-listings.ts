// The listings half of the Amazon Selling Partner API stand-in (amazon.ts): a seller's listings as
// the Listings Items API 2021-08-01 answers them (its `Item`, `ItemSummaryByMarketplace`, `Issue`
// and `ItemSearchResults` shapes), the checks Amazon makes of an image it downloads for a listing,
// and the pictures the stand-in draws for seeded listings. Where Amazon publishes an issue code
// (90000900, and 99022 as Amazon's answers quote it) the stand-in uses it; the codes it made up for
// checks whose codes Amazon does not publish are words, so nobody takes them for Amazon's.
import crypto from 'node:crypto';
import sharp, { type Metadata } from 'sharp';

/** A listing as the stand-in holds it, for a test to look at (`listings(sellerId)`). */
export interface AmazonListing {
  sku: string;
  asin: string;
  productType: string;
  itemName: string;
  /** The `media_location` each image attribute holds: the main one and `other_product_image_locator_1`…`_8`. */
  images: { main: string | null; others: (string | null)[] };
  issues: { code: string; message: string; severity: 'ERROR' | 'WARNING'; attributeNames?: string[] }[];
}

/** An issue as the Listings Items API answers it (`categories` is required there). */
export interface Issue {
  code: string;
  message: string;
  severity: 'ERROR' | 'WARNING';
  attributeNames?: string[];
  categories: string[];
  marketplaceIds?: string[];
}

/** An image attribute's value, with what the stand-in learnt of the picture when it took it. */
export interface Picture {
  mediaLocation: string;
  /** Where Amazon's copy is served (Amazon re-hosts the pictures it takes; so does the stand-in). */
  link: string;
  width: number;
  height: number;
}

export interface Listing {
  sku: string;
  asin: string;
  productType: string;
  itemName: string;
  createdAt: number;
  updatedAt: number;
  /** By attribute name: `main_product_image_locator`, `other_product_image_locator_1`…`_8`. */
  pictures: Map<string, Picture>;
  issues: Issue[];
}

export const MAIN = 'main_product_image_locator';
export const OTHERS = Array.from({ length: 8 }, (_, i) => `other_product_image_locator_${i + 1}`);
export const IMAGE_ATTRIBUTES = [MAIN, ...OTHERS];

/** The issue codes the stand-in uses, Amazon's where it publishes one. */
export const AMAZON_ISSUE_CODES = {
  /** Amazon's (the model's sandbox and real answers): an attribute the product type does not have. */
  invalidAttributes: '90000900',
  /** As Amazon's answers quote it: a required field of an attribute's value is missing. */
  notEnoughValues: '99022',
  productTypeMismatch: 'PRODUCT_TYPE_MISMATCH',
  mediaNotRetrievable: 'MEDIA_NOT_RETRIEVABLE',
  mediaFormat: 'MEDIA_FORMAT_NOT_SUPPORTED',
  imageTooSmall: 'IMAGE_TOO_SMALL',
  imageTooLarge: 'IMAGE_TOO_LARGE',
  imageBelowZoomSize: 'IMAGE_BELOW_ZOOM_SIZE',
  nonWhiteBackground: 'MAIN_IMAGE_NON_WHITE_BACKGROUND',
  mainImageMissing: 'MAIN_IMAGE_MISSING',
} as const;

/** Seller Central's "Image issues" wording for a main image that is missing. */
export const mainImageMissing = (marketplaceId: string): Issue => ({
  code: AMAZON_ISSUE_CODES.mainImageMissing,
  message: 'Main image is missing or incorrect. Submit a compliant image to lift the image suppression.',
  severity: 'ERROR',
  attributeNames: [MAIN],
  categories: ['MISSING_IMAGE'],
  marketplaceIds: [marketplaceId],
});

const LANGUAGES: Record<string, string> = {
  ATVPDKIKX0DER: 'en_US',
  A2EUQ1WTGCTBG2: 'en_CA',
  A1F83G8C2ARO7P: 'en_GB',
  A1PA6795UKMFR9: 'de_DE',
  A13V1IB3VIYZZH: 'fr_FR',
  APJ6JRA9NG5V4: 'it_IT',
  A1RKKUPIHCS9HS: 'es_ES',
};

export const INCLUDED_DATA = ['summaries', 'attributes', 'issues', 'offers', 'fulfillmentAvailability', 'procurement', 'relationships', 'productTypes'];

/** The listing as `Item`, with the data sets asked for (`includedData`). */
export function itemJson(listing: Listing, marketplaceId: string, included: readonly string[]): Record<string, unknown> {
  const item: Record<string, unknown> = { sku: listing.sku };
  const main = listing.pictures.get(MAIN);
  if (included.includes('summaries')) {
    item.summaries = [
      {
        marketplaceId,
        asin: listing.asin,
        productType: listing.productType,
        conditionType: 'new_new',
        // A listing without a main image is kept out of search (Seller Central, "Image issues").
        status: main ? ['BUYABLE', 'DISCOVERABLE'] : [],
        itemName: listing.itemName,
        createdDate: new Date(listing.createdAt).toISOString(),
        lastUpdatedDate: new Date(listing.updatedAt).toISOString(),
        ...(main ? { mainImage: { link: main.link, height: main.height, width: main.width } } : {}),
      },
    ];
  }
  if (included.includes('attributes')) {
    const attributes: Record<string, unknown> = {
      item_name: [{ value: listing.itemName, language_tag: LANGUAGES[marketplaceId] ?? 'en_US', marketplace_id: marketplaceId }],
    };
    for (const name of IMAGE_ATTRIBUTES) {
      const picture = listing.pictures.get(name);
      if (picture) attributes[name] = [{ marketplace_id: marketplaceId, media_location: picture.mediaLocation }];
    }
    item.attributes = attributes;
  }
  if (included.includes('issues')) item.issues = structuredClone(listing.issues);
  for (const empty of ['offers', 'fulfillmentAvailability', 'procurement', 'relationships']) if (included.includes(empty)) item[empty] = [];
  if (included.includes('productTypes')) item.productTypes = [{ marketplaceId, productType: listing.productType }];
  return item;
}

export function listingView(listing: Listing): AmazonListing {
  return {
    sku: listing.sku,
    asin: listing.asin,
    productType: listing.productType,
    itemName: listing.itemName,
    images: {
      main: listing.pictures.get(MAIN)?.mediaLocation ?? null,
      others: OTHERS.map((name) => listing.pictures.get(name)?.mediaLocation ?? null),
    },
    issues: listing.issues.map(({ code, message, severity, attributeNames }) => ({ code, message, severity, ...(attributeNames ? { attributeNames: [...attributeNames] } : {}) })),
  };
}

/** A comma-delimited query parameter's values (the API's `collectionFormat: csv`). */
export const listOf = (params: URLSearchParams, name: string) =>
  (params.get(name) ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

const IDENTIFIER_TYPES = ['ASIN', 'EAN', 'FNSKU', 'GTIN', 'ISBN', 'JAN', 'MINSAN', 'SKU', 'UPC'];
const statusOf = (listing: Listing) => (listing.pictures.has(MAIN) ? ['BUYABLE', 'DISCOVERABLE'] : []);
/** Page tokens are opaque to the client; here they name the offset of the page. */
const pageTokenFor = (offset: number) => Buffer.from(`page:${offset}`).toString('base64url');

/** searchListingsItems over a seller's listings: `ItemSearchResults`, or why the query is refused (400). */
export function searchListings(listings: Iterable<Listing>, params: URLSearchParams, marketplaceId: string): { bad: string } | { body: Record<string, unknown> } {
  const bad = (why: string) => ({ bad: why });
  const included = params.has('includedData') ? listOf(params, 'includedData') : ['summaries'];
  if (included.some((name) => !INCLUDED_DATA.includes(name))) return bad('includedData has a value that is not a data set.');
  const identifiers = listOf(params, 'identifiers');
  const identifiersType = params.get('identifiersType');
  if (identifiers.length > 0 && !identifiersType) return bad('identifiersType is required when identifiers are given.');
  if (identifiersType && identifiers.length === 0) return bad('identifiers are required when identifiersType is given.');
  if (identifiersType && !IDENTIFIER_TYPES.includes(identifiersType)) return bad('identifiersType is not one of its values.');
  if (identifiers.length > 20) return bad('identifiers can have at most 20 values.');
  const pageSize = Number(params.get('pageSize') ?? 10);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 20) return bad('pageSize must be an integer from 1 to 20.');
  const sortBy = params.get('sortBy') ?? 'lastUpdatedDate';
  const sortOrder = params.get('sortOrder') ?? 'DESC';
  if (!['sku', 'createdDate', 'lastUpdatedDate'].includes(sortBy) || !['ASC', 'DESC'].includes(sortOrder)) return bad('sortBy or sortOrder is not one of its values.');
  const bounds: [string, (listing: Listing) => number, 'after' | 'before'][] = [
    ['createdAfter', (listing) => listing.createdAt, 'after'],
    ['createdBefore', (listing) => listing.createdAt, 'before'],
    ['lastUpdatedAfter', (listing) => listing.updatedAt, 'after'],
    ['lastUpdatedBefore', (listing) => listing.updatedAt, 'before'],
  ];
  const limits: ((listing: Listing) => boolean)[] = [];
  for (const [name, of, way] of bounds) {
    const given = params.get(name);
    if (given === null) continue;
    const at = Date.parse(given);
    if (Number.isNaN(at)) return bad(`${name} is not an ISO 8601 date-time.`);
    limits.push((listing) => (way === 'after' ? of(listing) >= at : of(listing) <= at));
  }
  const severities = listOf(params, 'withIssueSeverity');
  const withStatus = listOf(params, 'withStatus');
  const withoutStatus = listOf(params, 'withoutStatus');
  let from = 0;
  const pageToken = params.get('pageToken');
  if (pageToken !== null) {
    const offset = /^page:(\d+)$/.exec(Buffer.from(pageToken, 'base64url').toString('utf8'))?.[1];
    if (offset === undefined) return bad('pageToken is not valid.');
    from = Number(offset);
  }
  // Only the seller's marketplace exists, and the stand-in's listings have no variations nor packages.
  const searchable = listOf(params, 'marketplaceIds').includes(marketplaceId) && !params.has('variationParentSku') && !params.has('packageHierarchySku');
  const identifierOf = (listing: Listing) => (identifiersType === 'SKU' ? listing.sku : identifiersType === 'ASIN' ? listing.asin : null);
  const matching = [...listings].filter(
    (listing) =>
      searchable &&
      (identifiers.length === 0 || identifiers.includes(identifierOf(listing) ?? '')) &&
      limits.every((within) => within(listing)) &&
      (severities.length === 0 || listing.issues.some((issue) => severities.includes(issue.severity))) &&
      (withStatus.length === 0 || withStatus.some((status) => statusOf(listing).includes(status))) &&
      !withoutStatus.some((status) => statusOf(listing).includes(status)),
  );
  const key = (listing: Listing) => (sortBy === 'sku' ? listing.sku : sortBy === 'createdDate' ? listing.createdAt : listing.updatedAt);
  const sorted = matching
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const order = x < y ? -1 : x > y ? 1 : a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0;
      return sortOrder === 'ASC' ? order : -order;
    })
    // "The maximum number of items (SKUs) that can be returned and paged through is 1000."
    .slice(0, 1000);
  const pagination = {
    ...(from + pageSize < sorted.length ? { nextToken: pageTokenFor(from + pageSize) } : {}),
    ...(from > 0 ? { previousToken: pageTokenFor(Math.max(0, from - pageSize)) } : {}),
  };
  return {
    body: {
      numberOfResults: sorted.length,
      ...(Object.keys(pagination).length > 0 ? { pagination } : {}),
      items: sorted.slice(from, from + pageSize).map((listing) => itemJson(listing, marketplaceId, included)),
    },
  };
}

/** A change a submission makes to an image attribute. */
export interface Change {
  attribute: string;
  /** null: the attribute is deleted. */
  url: string | null;
}

/**
 * A patchListingsItem request read: why it cannot be parsed (400), or the issues that make it
 * INVALID and the changes it makes if it is not.
 */
export function readPatch(
  raw: string,
  params: URLSearchParams,
  listing: Listing | undefined,
  marketplaceId: string,
): { bad: string } | { issues: Issue[]; changes: Change[]; mode: string | null; included: string[] } {
  const bad = (why: string) => ({ bad: why });
  if (!listOf(params, 'marketplaceIds').includes(marketplaceId)) return bad(`The seller sells in marketplace ${marketplaceId} only.`);
  const included = params.has('includedData') ? listOf(params, 'includedData') : ['issues'];
  if (included.some((name) => name !== 'issues' && name !== 'identifiers')) return bad('includedData has a value that is not a data set.');
  const mode = params.get('mode');
  if (mode !== null && mode !== 'VALIDATION_PREVIEW') return bad('mode is not one of its values.');
  let body: { productType?: unknown; patches?: unknown };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    return bad('The body is not JSON.');
  }
  if (typeof body?.productType !== 'string' || !Array.isArray(body.patches) || body.patches.length === 0) return bad('productType and patches (one or more) are required.');
  const patches = body.patches as { op?: unknown; path?: unknown; value?: unknown }[];
  if (patches.some((patch) => typeof patch !== 'object' || patch === null || !['add', 'replace', 'merge', 'delete'].includes(String(patch.op)) || typeof patch.path !== 'string')) {
    return bad('Each patch needs op (add, replace, merge or delete) and path.');
  }
  if (patches.some((patch) => patch.value !== undefined && !Array.isArray(patch.value))) return bad('A patch value must be an array.');
  const issues: Issue[] = [];
  const changes: Change[] = [];
  if (listing && body.productType !== listing.productType) {
    issues.push({
      code: AMAZON_ISSUE_CODES.productTypeMismatch,
      message: `The product type '${body.productType}' does not match the product type '${listing.productType}' of the listing.`,
      severity: 'ERROR',
      categories: ['INVALID_ATTRIBUTE'],
    });
  }
  for (const patch of patches) {
    const path = patch.path as string;
    const attribute = /^\/attributes\/([^/]+)$/.exec(path)?.[1];
    if (!attribute || !IMAGE_ATTRIBUTES.includes(attribute)) {
      issues.push({
        code: AMAZON_ISSUE_CODES.invalidAttributes,
        message: 'The attributes are invalid.',
        severity: 'ERROR',
        attributeNames: [attribute ?? path.replace(/^\/(attributes\/)?/, '')],
        categories: ['INVALID_ATTRIBUTE'],
      });
      continue;
    }
    if (patch.op === 'delete') {
      changes.push({ attribute, url: null });
      continue;
    }
    const ours = ((patch.value ?? []) as Record<string, unknown>[]).find((value) => value?.marketplace_id === marketplaceId);
    const location = ours?.media_location;
    if (typeof location !== 'string' || location === '') {
      issues.push({
        code: AMAZON_ISSUE_CODES.notEnoughValues,
        message: `The field '${ours ? 'media_location' : 'marketplace_id'}' for the attribute '${attribute}' does not have enough values. The required minimum is '1' value(s).`,
        severity: 'ERROR',
        attributeNames: [attribute],
        categories: ['MISSING_ATTRIBUTE'],
      });
      continue;
    }
    changes.push({ attribute, url: location });
  }
  return { issues, changes, mode, included };
}

/** A new ASIN: B0 and eight capitals or digits. */
export const newAsin = () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return `B0${Array.from({ length: 8 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('')}`;
};

type Format = 'jpeg' | 'png' | 'gif' | 'tiff';

/** The formats Amazon takes (JPEG, TIFF, PNG, non-animated GIF), told by their first bytes. */
export function sniff(bytes: Buffer): Format | null {
  if (bytes.length < 8) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'tiff';
  return null;
}

const MIN_SIDE = 500;
const ZOOM_SIDE = 1000;
const MAX_SIDE = 10_000;
/** A channel this close to 255 counts as white (JPEG rounds pure white to 254 now and then). */
const WHITE_TOLERANCE = 3;
/** The share of the border that must be white: a product may touch the frame here and there. */
const WHITE_SHARE = 0.97;

const issueFor = (attribute: string, marketplaceId: string, code: string, message: string, severity: 'ERROR' | 'WARNING' = 'ERROR'): Issue => ({
  code,
  message,
  severity,
  attributeNames: [attribute],
  categories: ['INVALID_IMAGE'],
  marketplaceIds: [marketplaceId],
});

/** Whether the picture's border is white: a two-pixel frame of it, at most 1000 px on a side. */
async function whiteBorder(bytes: Buffer): Promise<boolean> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize({ width: 1000, height: 1000, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  let white = 0;
  let seen = 0;
  const look = (x: number, y: number) => {
    const at = (y * width + x) * channels;
    seen += 1;
    if (data[at]! >= 255 - WHITE_TOLERANCE && data[at + 1]! >= 255 - WHITE_TOLERANCE && data[at + 2]! >= 255 - WHITE_TOLERANCE) white += 1;
  };
  for (let ring = 0; ring < 2; ring += 1) {
    for (let x = 0; x < width; x += 1) {
      look(x, ring);
      look(x, height - 1 - ring);
    }
    for (let y = 2; y < height - 2; y += 1) {
      look(ring, y);
      look(width - 1 - ring, y);
    }
  }
  return seen > 0 && white / seen >= WHITE_SHARE;
}

export interface Checked {
  /** Whether the picture is taken (set on the attribute); the issues stand beside it either way. */
  taken: boolean;
  width: number;
  height: number;
  format: Format | null;
  issues: Issue[];
}

/**
 * Amazon's checks of a downloaded picture (Seller Central, "Product image requirements" and
 * "Image issues"): a file it can read, 500 px or more on the longest side (1,000 px for zoom, a
 * warning below that), at most 10,000 px, and for the main image a pure white background.
 */
export async function checkPicture(bytes: Buffer, attribute: string, url: string, marketplaceId: string): Promise<Checked> {
  const refused = (code: string, message: string, width = 0, height = 0, format: Format | null = null): Checked => ({
    taken: false,
    width,
    height,
    format,
    issues: [issueFor(attribute, marketplaceId, code, message)],
  });
  const format = sniff(bytes);
  if (!format) return refused(AMAZON_ISSUE_CODES.mediaFormat, `The media at ${url} is not a JPEG, TIFF, PNG or non-animated GIF file.`);
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch {
    return refused(AMAZON_ISSUE_CODES.mediaFormat, `The media at ${url} could not be read as an image.`, 0, 0, format);
  }
  if (format === 'gif' && (metadata.pages ?? 1) > 1) return refused(AMAZON_ISSUE_CODES.mediaFormat, `Animated GIF files are not supported: ${url}.`, 0, 0, format);
  // EXIF orientations 5–8 turn the picture a quarter; the longest side is the same either way.
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  const longest = Math.max(width, height);
  if (longest < MIN_SIDE) {
    return refused(AMAZON_ISSUE_CODES.imageTooSmall, `The image is ${width} x ${height} pixels; images must be at least ${MIN_SIDE} pixels on the longest side.`, width, height, format);
  }
  if (longest > MAX_SIDE) {
    return refused(AMAZON_ISSUE_CODES.imageTooLarge, `The image is ${width} x ${height} pixels; images cannot exceed ${MAX_SIDE} pixels on the longest side.`, width, height, format);
  }
  if (attribute === MAIN && !(await whiteBorder(bytes))) {
    return refused(
      AMAZON_ISSUE_CODES.nonWhiteBackground,
      'We believe that the main image has a non-pure white background (RGB 255 255 255), which is not permitted for this product type. Please submit a compliant image to lift the suppression.',
      width,
      height,
      format,
    );
  }
  const issues =
    longest < ZOOM_SIDE
      ? [issueFor(attribute, marketplaceId, AMAZON_ISSUE_CODES.imageBelowZoomSize, `The image is ${width} x ${height} pixels; images should be ${ZOOM_SIDE} pixels or larger on the longest side to allow zoom.`, 'WARNING')]
      : [];
  return { taken: true, width, height, format, issues };
}

export const notRetrievable = (attribute: string, url: string, marketplaceId: string, why: string): Issue =>
  issueFor(attribute, marketplaceId, AMAZON_ISSUE_CODES.mediaNotRetrievable, `Unable to Retrieve Media Content for URL '${why}': ${url}.`);

/** The size of the stand-in's own pictures. */
export const PICTURE_SIDE = 1000;

/**
 * A picture of a seeded listing: a shoe-like shape in the SKU's colour, the main one (n = 0) on
 * pure white, the others on a tinted ground as lifestyle pictures are.
 */
export async function drawPicture(sku: string, n: number): Promise<Buffer> {
  const hue = crypto.createHash('sha1').update(sku).digest()[0]! * (360 / 256);
  const ground = n === 0 ? '#ffffff' : `hsl(${(hue + 40 * n) % 360}, 30%, 85%)`;
  const tilt = n === 0 ? 0 : (n * 17) % 40 - 20;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PICTURE_SIDE}" height="${PICTURE_SIDE}">
<rect width="100%" height="100%" fill="${ground}"/>
<g transform="rotate(${tilt} 500 500)">
<path d="M140 610 C 160 470 300 430 400 440 C 470 330 560 300 640 330 C 700 420 800 480 860 560 C 880 620 860 660 800 670 L 180 670 C 150 670 135 645 140 610 Z" fill="hsl(${hue}, 55%, 40%)"/>
<rect x="140" y="660" width="730" height="40" rx="18" fill="hsl(${hue}, 20%, 20%)"/>
</g></svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: ground }).jpeg({ quality: 85 }).toBuffer();
}
