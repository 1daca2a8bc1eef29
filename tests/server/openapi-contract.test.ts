// The OpenAPI document is the contract: every route declares each status it can answer with a
// schema, every failure is the error envelope with its status as `code`, and what the plugins
// send on a route (no session, a body that is malformed, too large or of another type) is among
// what that route declares, so it reaches the caller as declared instead of as a 500. The answers an
// image edit rests on (the upload's file_key and public_url, an asset's edit_files) are documented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { EDIT_UPLOAD_DESCRIPTIONS, MAX_UPLOAD_BYTES } from '../../contract/materials';
import { errorEnvelopeSchema } from '../../contract/envelope';
import { SANDBOX_CHECKOUT_PATH } from '../../contract/routes';

interface Schema {
  type?: string;
  format?: string;
  const?: unknown;
  required?: string[];
  properties?: Record<string, Schema>;
  [keyword: string]: unknown;
}
interface Response {
  description?: string;
  content?: Record<string, { schema?: Schema }>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: unknown;
  responses?: Record<string, Response>;
}
interface Route {
  method: string;
  path: string;
  operation: Operation;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Statuses that carry no body by definition. */
const EMPTY_STATUSES = new Set(['204', '205', '304']);
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

let t: TestApp;
let routes: Route[];
let token: string;

/** Routes as the router holds them (the docs' own routes aside), as `METHOD path` lines. */
function servedRoutes(app: TestApp['app']): string[] {
  const served: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = Math.round((match[1] ?? '').length / 4);
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    // The docs themselves, and the payment sandbox's checkout pages (a provider's pages, not the API).
    if (path.startsWith('/api/docs') || path.startsWith(SANDBOX_CHECKOUT_PATH)) continue;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') served.push(`${method} ${path}`);
    }
  }
  return served;
}

beforeAll(async () => {
  t = await createTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
  token = (await signedInSeller(t, 'contract')).token;
});

afterAll(() => t.close());

/** What is wrong with how one declared answer describes its body, if anything. */
function bodyProblem(status: string, response: Response): string | null {
  const content = Object.entries(response.content ?? {});
  if (content.length === 0) return EMPTY_STATUSES.has(status) || status.startsWith('3') ? null : 'has no body schema';
  for (const [mediaType, { schema }] of content) {
    if (!schema || Object.keys(schema).length === 0) return `${mediaType} has no schema`;
    // Bytes and event streams are declared as strings of their content type.
    if (!isJson(mediaType) && schema.type !== 'string') return `${mediaType} is not declared as a string of bytes or text`;
  }
  return null;
}

/** What keeps a failure's declaration from being the error envelope, if anything. */
function envelopeProblem(status: string, response: Response): string | null {
  const types = Object.keys(response.content ?? {});
  if (types.length !== 1 || types[0] !== 'application/json') return `is ${types.join(', ') || 'nothing'}, not JSON`;
  const schema = response.content?.['application/json']?.schema ?? {};
  const missing = ['code', 'error', 'message'].filter((field) => !schema.required?.includes(field));
  if (missing.length > 0) return `does not require ${missing.join(', ')}`;
  const code = schema.properties?.code;
  const fixed = code?.const ?? (Array.isArray(code?.enum) && code.enum.length === 1 ? code.enum[0] : undefined);
  if (fixed !== Number(status)) return `does not fix code to ${status}`;
  if (schema.properties?.error?.type !== 'string' || schema.properties.message?.type !== 'string') return 'has no text error and message';
  return null;
}

/** A parameter validation can refuse: any in the query or headers, or one constrained beyond being text. */
const refusable = (parameter: Parameter) =>
  parameter.in !== 'path' || Object.keys(parameter.schema ?? {}).some((keyword) => keyword !== 'type') || parameter.schema?.type !== 'string';

describe('the OpenAPI document', () => {
  it('names every route the server serves', () => {
    const documented = routes.map((route) => `${route.method} ${route.path.replace(/\{([^}]+)\}/g, ':$1')}`);
    const served = servedRoutes(t.app);
    expect(documented.length).toBeGreaterThan(25);
    expect(served.filter((route) => !documented.includes(route) && !route.includes('*'))).toEqual([]);
    expect(documented.length).toBe(served.length);
  });

  it('gives every answer of every route a schema', () => {
    const problems = routes.flatMap(({ method, path, operation }) =>
      Object.entries(operation.responses ?? {}).flatMap(([status, response]) => {
        const problem = bodyProblem(status, response);
        return problem ? [`${method} ${path} ${status} ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('declares every failure as the error envelope with its status as code', () => {
    const problems = routes.flatMap(({ method, path, operation }) =>
      Object.entries(operation.responses ?? {})
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([status, response]) => {
          const problem = envelopeProblem(status, response);
          return problem ? [`${method} ${path} ${status} ${problem}`] : [];
        }),
    );
    expect(problems).toEqual([]);
  });

  it('declares the failures every route of its kind can meet', () => {
    const problems = routes.flatMap(({ method, path, operation }) => {
      const declared = Object.keys(operation.responses ?? {});
      const needed = [
        '500',
        ...(operation.security?.length ? ['401'] : []),
        ...(BODY_METHODS.has(method) ? ['400', '413', '415'] : []),
        ...(operation.parameters?.some(refusable) ? ['400'] : []),
      ];
      const missing = [...new Set(needed)].filter((status) => !declared.includes(status));
      return missing.length > 0 ? [`${method} ${path} does not declare ${missing.join(', ')}`] : [];
    });
    expect(problems).toEqual([]);
  });
});

describe('what an image edit needs, as the document says it', () => {
  const operation = (method: string, path: string) => routes.find((route) => route.method === method && route.path === path)!.operation;
  const answer = (method: string, path: string) => operation(method, path).responses?.['200']?.content?.['application/json']?.schema?.properties?.data as Schema;

  it('documents the edit uploads’ descriptions, and an upload answer that names the stored file and its address', () => {
    const request = operation('POST', '/api/v1/materials/upload').requestBody as { content: Record<string, { schema: Schema }> };
    expect(request.content['application/json']!.schema.properties!.description!.examples).toEqual(expect.arrayContaining([...EDIT_UPLOAD_DESCRIPTIONS]));
    const ticket = answer('POST', '/api/v1/materials/upload');
    expect(ticket.required).toEqual(expect.arrayContaining(['material_id', 'presigned_url', 'file_key', 'public_url']));
    expect(ticket.properties!.file_key).toEqual({ type: 'string' });
    expect(ticket.properties!.public_url).toEqual({ type: 'string' });
  });

  it('gives every asset answer its edit and the files to reopen it with, or null', () => {
    for (const [method, path] of [
      ['GET', '/api/v1/content/assets'],
      ['POST', '/api/v1/content/assets/batch-create'],
    ] as const) {
      const asset = answer(method, path).items as Schema;
      expect(asset.required, path).toContain('edit_files');
      const files = asset.properties!.edit_files as { anyOf: Schema[] };
      expect(files.anyOf, path).toContainEqual({ type: 'null' });
      const shape = files.anyOf.find((choice) => choice.type === 'object')!;
      expect(shape.required, path).toEqual(['source_url', 'logos']);
      expect(shape.properties!.source_url, path).toEqual({ type: ['string', 'null'] });
      expect(shape.properties!.logos!.additionalProperties, path).toEqual({ type: 'string' });
      expect(asset.properties, path).toHaveProperty('edit_meta');
    }
  });
});

describe('every route, answering what its plugins send', () => {
  const url = (path: string) =>
    path.replace('{*}', `materials/${crypto.randomUUID()}.jpg`).replace(/\{[^}]+\}/g, crypto.randomUUID());
  const bearer = (route: Route): Record<string, string> => (route.operation.security?.length ? { authorization: `Bearer ${token}` } : {});

  interface Attempt {
    headers: Record<string, string>;
    payload?: string;
    url?: string;
  }

  /** Sends one request to every route it applies to; returns the routes that did not answer `status` in the envelope. */
  async function misses(status: number, applies: (route: Route) => boolean, request: (route: Route) => Attempt) {
    const chosen = routes.filter(applies);
    expect(chosen.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const route of chosen) {
      const attempt = request(route);
      const res = await t.app.inject({ method: route.method as 'GET', url: attempt.url ?? url(route.path), headers: attempt.headers, payload: attempt.payload });
      const body = errorEnvelopeSchema.safeParse(String(res.headers['content-type']).includes('json') ? res.json() : null);
      if (res.statusCode !== status || body.data?.code !== status) {
        wrong.push(`${route.method} ${route.path} answered ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    return wrong;
  }

  it('401 in the envelope to a caller without a session', async () => {
    expect(await misses(401, (route) => !!route.operation.security?.length, () => ({ headers: {} }))).toEqual([]);
  });

  it('415 in the envelope to a body of a type the server does not read', async () => {
    const wrong = await misses(415, (route) => BODY_METHODS.has(route.method), (route) => ({
      headers: { ...bearer(route), 'content-type': 'application/xml' },
      payload: '<shoe/>',
    }));
    expect(wrong).toEqual([]);
  });

  it('400 in the envelope to malformed JSON', async () => {
    const wrong = await misses(400, (route) => BODY_METHODS.has(route.method), (route) => ({
      headers: { ...bearer(route), 'content-type': 'application/json' },
      payload: '{"shoe": ',
    }));
    expect(wrong).toEqual([]);
  });

  it('400 in the envelope to an id that is not one, or a required query parameter left out', async () => {
    const refusable = (route: Route) => route.operation.parameters?.some((p) => (p.in === 'query' && p.required) || p.schema?.format === 'uuid');
    // An id in the path, or one the query names (optional or not), given as something that is not one.
    const idQuery = (route: Route) =>
      (route.operation.parameters ?? []).filter((p) => p.in === 'query' && p.schema?.format === 'uuid').map((p) => `${p.name}=not-an-id`);
    const wrong = await misses(400, (route) => !!refusable(route), (route) => ({
      headers: bearer(route),
      url: `${route.path.replace(/\{[^}]+\}/g, 'not-an-id')}${idQuery(route).length > 0 ? `?${idQuery(route).join('&')}` : ''}`,
    }));
    expect(wrong).toEqual([]);
  });

  it('413 in the envelope to a body over the limit', async () => {
    // JSON bodies are limited to Fastify's 1 MiB; a photo's bytes to MAX_UPLOAD_BYTES.
    const json = `"${'x'.repeat(1024 * 1024)}"`;
    const photo = 'x'.repeat(MAX_UPLOAD_BYTES + 1);
    const wrong = await misses(413, (route) => BODY_METHODS.has(route.method), (route) =>
      route.path.startsWith('/api/v1/storage')
        ? { headers: { 'content-type': 'image/jpeg' }, payload: photo }
        : { headers: { ...bearer(route), 'content-type': 'application/json' }, payload: json },
    );
    expect(wrong).toEqual([]);
  });
});
