// Every route of the OpenAPI document, fed inputs made from its own schemas and bent out of
// shape — NUL bytes, lone surrogates, 10 MB strings, huge, negative and non-finite numbers, deep
// JSON, wrong types, missing and extra fields — in its body, query, path and headers, with and
// without a signed-in seller's token: no answer is ever a 5xx.
// The seed is printed on failure; FUZZ_SEED=<seed> replays it, FUZZ_RUNS=<n> runs longer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { shoePhoto } from '../fixtures/shoes';
import { uploadPhoto } from '../support/photos';
import { SELLER_PASSWORD, signedInSeller } from '../support/sellers';
import { createTestApp, type TestApp } from '../support/test-app';
import { startFakeAmazon } from '../support/fakes/amazon';
import { startFakeOzon } from '../support/fakes/ozon';
import { startFakeWildberries } from '../support/fakes/wildberries';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  examples?: unknown[];
}

interface Parameter {
  in: 'query' | 'path' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

/** JSON text JSON.stringify cannot write: an overflowing or over-precise number, deep nesting. */
class Raw {
  constructor(readonly text: string) {}
}

let t: TestApp;
let token: string;
const knownIds: string[] = [];
const TEN_MB = 'x'.repeat(10 * 1024 * 1024);

// Leaves a valid value would never hold.
const BAD_UNITS = ['\u0000', '\ud800', '\udfff', '\udc00\ud800'];
const nastyNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, -1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), 2 ** 63, 1e308, -1e308, 5e-324),
  fc.constantFrom(new Raw('1e999'), new Raw('-1e999'), new Raw('123456789012345678901234567890'), new Raw('-0.0e-999')),
  fc.double(),
);
/** Replaces one unit of a string (or fills an empty one) with something no text may hold. */
const spoiled = (strings: fc.Arbitrary<string>) =>
  fc
    .tuple(strings, fc.nat(), fc.constantFrom(...BAD_UNITS))
    .map(([value, at, bad]) => {
      const i = value.length ? at % value.length : 0;
      return value.slice(0, i) + bad + value.slice(i + 1);
    });
const nastyString = fc.oneof(
  { weight: 4, arbitrary: spoiled(fc.string({ maxLength: 30 })) },
  { weight: 1, arbitrary: fc.constant(TEN_MB) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t\n', 'null', 'NaN', '-1', '1e999', '0x10', '[]', '{}', '%00', '../../etc/passwd') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);
/** JSON nested thousands deep, as text (building it as objects would only test this file). */
const deepJson = fc
  .tuple(fc.integer({ min: 50, max: 50_000 }), fc.boolean())
  .map(([depth, arrays]) => new Raw(arrays ? `${'['.repeat(depth)}"deep"${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}"deep"${'}'.repeat(depth)}`));
const anyJson = fc.jsonValue({ maxDepth: 3 });
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.constantFrom(null, true, false, [], {}),
  deepJson,
  anyJson,
);

/** Where a schema's pattern can be met, strings that meet it. */
function matching(pattern: string): fc.Arbitrary<string> | null {
  try {
    return fc.stringMatching(new RegExp(pattern, 'u'));
  } catch {
    return null;
  }
}

/** Values the schema describes; when `rough`, with a spoiled leaf or a missing field now and then. */
function valid(schema: Schema, rough: boolean): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => input(choice, rough)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      const plain =
        schema.format === 'uuid'
          ? fc.oneof(fc.constantFrom(...knownIds), fc.uuid())
          : ((schema.pattern ? matching(schema.pattern) : null) ??
            fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }));
      const examples = (schema.examples ?? []) as string[];
      const seeds = examples.length ? fc.oneof(fc.constantFrom(...examples), plain) : plain;
      return rough ? fc.oneof({ weight: 3, arbitrary: seeds }, { weight: 1, arbitrary: spoiled(seeds) }) : seeds;
    }
    case 'integer': {
      const integers = fc.integer({
        min: Math.max(Math.ceil(schema.minimum ?? (schema.exclusiveMinimum ?? -(2 ** 31) - 1) + 1), -(2 ** 31)),
        max: Math.min(Math.floor(schema.maximum ?? (schema.exclusiveMaximum ?? 2 ** 31) - 1), 2 ** 31 - 1),
      });
      return rough ? fc.oneof(integers, nastyNumber) : integers;
    }
    case 'number': {
      const numbers = fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      return rough ? fc.oneof(numbers, nastyNumber) : numbers;
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(input(schema.items ?? {}, rough), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object': {
      const required = new Set(schema.required ?? []);
      const fields = Object.entries(schema.properties ?? {}).map(([key, field]) =>
        (required.has(key) && !rough ? input(field, rough) : fc.option(input(field, rough), { freq: required.has(key) ? 20 : 2, nil: undefined })).map(
          (value) => [key, value] as const,
        ),
      );
      const record =
        typeof schema.additionalProperties === 'object'
          ? fc.dictionary(rough ? fc.oneof(fc.string(), spoiled(fc.string())) : fc.string(), input(schema.additionalProperties, rough), { maxKeys: 4 })
          : fc.constant({});
      const extra = rough ? fc.option(fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 }), { freq: 5, nil: {} }) : fc.constant({});
      return fc.tuple(fc.tuple(...fields), record, extra).map(([entries, more, extras]) => ({
        ...extras,
        ...more,
        ...Object.fromEntries(entries.filter(([, value]) => value !== undefined)),
      }));
    }
    default:
      return anyJson;
  }
}

/** What the schema describes; when `rough`, sometimes anything at all. */
function input(schema: Schema, rough: boolean): fc.Arbitrary<unknown> {
  return rough ? fc.oneof({ weight: 7, arbitrary: valid(schema, true) }, { weight: 1, arbitrary: hostile }) : valid(schema, false);
}

/** JSON text, with Raw tokens written as they are. */
function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof Raw)) return item;
    raws.push(item.text);
    return `\u0001raw${raws.length - 1}\u0001`;
  });
  return (text ?? 'null').replace(/"\\u0001raw(\d+)\\u0001"/g, (_, i: string) => raws[Number(i)]!);
}

/** A value as URL text: lone surrogates as the bytes a careless client would send (WTF-8). */
function urlPart(value: unknown): string {
  const textValue = value instanceof Raw ? value.text : typeof value === 'string' ? value : toJson(value);
  if (!/\p{Cs}/u.test(textValue)) return encodeURIComponent(textValue);
  let out = '';
  for (const char of textValue) {
    const code = char.codePointAt(0)!;
    out +=
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16)}`).join('')
        : encodeURIComponent(char);
  }
  return out;
}

/** A header value as HTTP can carry it (Node refuses other characters before any route runs). */
function headerValue(value: unknown): string {
  return urlPart(value).slice(0, 16 * 1024);
}

const RAW_BODIES = ['{', '{"a":', '[1,2', '', 'null', '"\\u0000"', '\u0000', '{"__proto__":{"x":1}}', '1e999'];

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Requests a client could send, or (rough) a careless or hostile one. */
function requests(method: string, path: string, operation: Operation, rough: boolean): fc.Arbitrary<Request> {
  const parameters = operation.parameters ?? [];
  const parameterValue = (parameter: Parameter) =>
    fc.option(input(parameter.schema, rough), { freq: parameter.required || parameter.in === 'path' ? 20 : 2, nil: undefined });
  const query = fc.tuple(
    ...parameters.filter((p) => p.in === 'query').map((p) => parameterValue(p).map((value) => [p.name, value] as const)),
    rough ? fc.option(fc.tuple(fc.string({ maxLength: 8 }), nastyString), { freq: 5, nil: undefined }) : fc.constant(undefined),
  );
  const pathValues = fc.tuple(...parameters.filter((p) => p.in === 'path').map((p) => input(p.schema, rough).map((v) => [p.name, v] as const)));
  const headerValues = fc.tuple(...parameters.filter((p) => p.in === 'header').map((p) => parameterValue(p).map((v) => [p.name, v] as const)));
  const schema = operation.requestBody?.content['application/json']?.schema;
  const body: fc.Arbitrary<string | undefined> =
    method === 'get'
      ? fc.constant(undefined)
      : !rough
        ? (schema ? input(schema, false).map(toJson) : fc.constant(undefined))
        : fc.oneof(
            { weight: 8, arbitrary: schema ? input(schema, true).map(toJson) : fc.option(hostile.map(toJson), { nil: undefined }) },
            { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
          );
  const authorization = fc.constantFrom('seller', 'seller', 'seller', 'seller', 'none', 'Bearer ', 'Bearer not-a-token', 'Basic Zm9vOmJhcg==', `Bearer ${'a'.repeat(5000)}`);
  const language = fc.constantFrom('ru', 'en', 'zh', 'xx', '*', 'en-US,en;q=0.9,ru;q=0.8');
  return fc.tuple(query, pathValues, headerValues, body, authorization, language).map(([queryEntries, pathEntries, headerEntries, payload, auth, lang]) => {
    let url = path;
    for (const [name, value] of pathEntries) url = url.replace(`{${name}}`, urlPart(value));
    const search = queryEntries
      .filter((entry): entry is readonly [string, unknown] => entry !== undefined && entry[1] !== undefined)
      .flatMap(([name, value]) => (Array.isArray(value) ? value.map((item) => [name, item] as const) : [[name, value] as const]))
      .map(([name, value]) => `${urlPart(name)}=${urlPart(value)}`)
      .join('&');
    const headers: Record<string, string> = { 'accept-language': lang };
    for (const [name, value] of headerEntries) if (value !== undefined) headers[name] = headerValue(value);
    if (auth !== 'none') headers.authorization = auth === 'seller' ? 'seller' : auth;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return { method: method.toUpperCase(), url: search ? `${url}?${search}` : url, headers, payload };
  });
}

/** The seller's session again, if a request ended it (a logout, say). */
async function keepSignedIn() {
  const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });
  if (me.statusCode === 200) return;
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/custom',
    payload: { username_or_email: 'fuzzer', password: SELLER_PASSWORD },
  });
  expect(login.statusCode, login.body).toBe(200);
  token = login.json().data.access_token;
}

function shown(request: Request): string {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text);
  return `${request.method} ${cut(request.url)} ${JSON.stringify(request.headers).slice(0, 300)} ${cut(request.payload ?? '')}`;
}

let operations: [string, string, Operation][] = [];

/** The marketplaces a store is connected on: their stand-ins, so no request leaves the suite. */
let marketplaces: [Awaited<ReturnType<typeof startFakeWildberries>>, Awaited<ReturnType<typeof startFakeOzon>>, Awaited<ReturnType<typeof startFakeAmazon>>] | undefined;

beforeAll(async () => {
  marketplaces = await Promise.all([startFakeWildberries(), startFakeOzon(), startFakeAmazon()]);
  const [wb, ozon, amazon] = marketplaces;
  t = await createTestApp({
    RATE_LIMIT_DISABLED: 'true',
    WILDBERRIES_API_URL: wb.origin,
    OZON_API_URL: ozon.origin,
    AMAZON_TOKEN_URL: amazon.tokenUrl,
    AMAZON_API_URL: amazon.origin,
  });
  const seller = await signedInSeller(t, 'fuzzer');
  token = seller.token;
  const photo = await shoePhoto({ width: 900, height: 700, seed: 7 });
  knownIds.push(seller.id, await uploadPhoto(t, token, photo.jpeg, 'front'));
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => [method, path, operation] as [string, string, Operation]),
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
  await Promise.all(marketplaces?.map((stand) => stand.close()) ?? []);
});

describe('every route, fed anything', () => {
  it('finds the routes in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(30);
  });

  it('never answers 5xx', async () => {
    const failures: string[] = [];
    for (const [method, path, operation] of operations) {
      const details = await fc.check(
        fc.asyncProperty(fc.boolean().chain((rough) => requests(method, path, operation, rough)), async (request) => {
          const headers = { ...request.headers };
          if (headers.authorization === 'seller') headers.authorization = `Bearer ${token}`;
          const res = await t.app.inject({ method: request.method as 'GET', url: request.url, headers, payload: request.payload });
          if (res.statusCode >= 500) {
            throw new Error(`answered ${res.statusCode} ${res.body.slice(0, 300)} to ${shown(request)}`);
          }
          if (headers.authorization === `Bearer ${token}` && res.statusCode < 300 && request.method !== 'GET') await keepSignedIn();
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      if (details.failed) {
        const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        failures.push(`${method.toUpperCase()} ${path} ${error} (run ${details.counterexamplePath})`);
      }
    }
    expect(failures, `FUZZ_SEED=${SEED} replays these`).toEqual([]);
  }, 600_000);
});
