// A bucket on loopback that behaves as S3 does for what SoleStudio uses: s3rver keeps the objects
// and answers the API and CORS, and a front of our own checks the Signature Version 4 of every
// presigned address, as S3 does and s3rver does not: the signed headers (Content-Length and
// Content-Type of an upload) must be sent exactly as signed, before the address expires. Calls
// signed in an Authorization header (the server's own, through the SDK) pass straight through.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export const BUCKET_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The CORS rule the README asks operators to set on their bucket, here for any page origin. */
export const BUCKET_CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedHeader>content-type</AllowedHeader>
    <AllowedHeader>accept-language</AllowedHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export interface FakeBucket {
  /** `http://127.0.0.1:{port}`: the S3_ENDPOINT (path-style) the server is given. */
  endpoint: string;
  name: string;
  /** The S3_* variables that point a server at this bucket. */
  env: Record<string, string>;
  /** Presigned requests the front refused, with why. */
  refused: string[];
  /** What GetBucketVersioning answers (s3rver has no versioning): null for a bucket where it was never turned on. */
  versioning: 'Enabled' | 'Suspended' | null;
  close(): Promise<void>;
}

const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: crypto.BinaryLike, text: string) => crypto.createHmac('sha256', key).update(text).digest();

/** Why a presigned request does not verify, or null when it does (AWS's Signature Version 4). */
export function presignedProblem(request: http.IncomingMessage, secretAccessKey: string, now = Date.now()): string | null {
  const [rawPath = '/', rawQuery = ''] = (request.url ?? '/').split('?', 2) as [string, string?];
  const pairs = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=', 2).map((part) => decodeURIComponent(part.replace(/\+/g, ' '))) as [string, string?]);
  const query = new Map(pairs.map(([name, value = '']) => [name, value]));
  const amzDate = query.get('X-Amz-Date') ?? '';
  const credential = (query.get('X-Amz-Credential') ?? '').split('/');
  const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';');
  const dated = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!dated || credential.length !== 5) return 'malformed';
  const signedAt = Date.UTC(+dated[1]!, +dated[2]! - 1, +dated[3]!, +dated[4]!, +dated[5]!, +dated[6]!);
  if (signedAt + Number(query.get('X-Amz-Expires')) * 1000 < now) return 'expired';
  const canonicalQuery = pairs
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value = '']) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const headerLines = signedHeaders.map((name) => `${name}:${String(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [request.method, rawPath, canonicalQuery, headerLines, signedHeaders.join(';'), query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD'].join('\n');
  const [, day, region, service] = credential as [string, string, string, string, string];
  const scope = credential.slice(1).join('/');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, crypto.createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), 'aws4_request');
  const expected = hmac(key, toSign).toString('hex');
  return expected === query.get('X-Amz-Signature') ? null : `signature does not match (${signedHeaders.join(';')})`;
}

/** The parts of s3rver's file store the front reads (untyped in @types/s3rver). */
interface S3rverStore {
  getMetadata(bucket: string, key: string): Promise<Record<string, string>>;
  getResourcePath(bucket: string, key: string, resource: 'object'): string;
}

/**
 * S3 answers a PUT once the object is stored: a GET after the answer reads all of it. s3rver answers
 * once it has read the body, while its file may still be being written (its store settles on the
 * end of the stream that hashes the body, not on the file's), so a photo checked at once can be read
 * short. The front holds the answer until the object's file has every byte its metadata names.
 */
async function whollyStored(s3: S3rver, pathname: string): Promise<void> {
  const [bucket = '', ...rest] = pathname.replace(/^\//, '').split('/');
  const key = decodeURIComponent(rest.join('/'));
  const store = (s3 as unknown as { store: S3rverStore }).store;
  const size = Number((await store.getMetadata(bucket, key).catch(() => ({})) as Record<string, string>)['content-length']);
  if (!Number.isFinite(size)) return;
  const file = store.getResourcePath(bucket, key, 'object');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && ((await fs.promises.stat(file).catch(() => null))?.size ?? 0) < size) await new Promise((resolve) => setTimeout(resolve, 5));
}

const refusal = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export async function startBucket({ name = 'photos', cors = true, port = 0 }: { name?: string; cors?: boolean; port?: number } = {}): Promise<FakeBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-s3-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name, configs: cors ? [BUCKET_CORS] : [] }] });
  const { port: s3Port } = (await s3.run()) as unknown as { port: number };
  const refused: string[] = [];
  const front = http.createServer((request, response) => {
    const asked = new URL(request.url ?? '/', 'http://bucket');
    if (request.method === 'GET' && asked.pathname.replace(/\/$/, '') === `/${name}` && asked.searchParams.has('versioning')) {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/xml' });
      const status = bucket.versioning ? `<Status>${bucket.versioning}</Status>` : '';
      response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${status}</VersioningConfiguration>`);
      return;
    }
    // A CORS preflight carries the address but is not signed (S3 answers it from the CORS rule).
    if (request.method !== 'OPTIONS' && (request.url ?? '').includes('X-Amz-Signature=')) {
      const problem = presignedProblem(request, BUCKET_CREDENTIALS.secretAccessKey);
      if (problem) {
        refused.push(`${request.method} ${request.url?.split('?')[0]}: ${problem}`);
        request.resume();
        // S3 names the page's origin on its refusals too, so the page can read them.
        response.writeHead(403, { 'content-type': 'application/xml', 'access-control-allow-origin': '*' });
        response.end(refusal(problem === 'expired' ? 'AccessDenied' : 'SignatureDoesNotMatch', problem));
        return;
      }
    }
    const onward = http.request({ host: '127.0.0.1', port: s3Port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      const status = answer.statusCode ?? 502;
      const written = request.method === 'PUT' && status < 300 && !asked.searchParams.has('uploadId') ? whollyStored(s3, asked.pathname) : Promise.resolve();
      void written.then(() => {
        response.writeHead(status, answer.headers);
        answer.pipe(response);
      });
    });
    onward.on('error', () => response.destroy());
    request.pipe(onward);
  });
  // S3 keeps an idle connection open for many seconds; Node's five, racing a client that reuses
  // it after a slow step (a photo checked in between), would reset it under the client's feet.
  front.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => front.listen(port, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const bucket: FakeBucket = {
    endpoint,
    name,
    env: {
      S3_BUCKET: name,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: BUCKET_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: BUCKET_CREDENTIALS.secretAccessKey,
    },
    refused,
    versioning: null,
    async close() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
  return bucket;
}
