// HS256 JSON Web Tokens on node:crypto. Signing and checking are synchronous and use no key
// import: on a sign-in burst the Web Crypto route (import a key, then sign, each asynchronous)
// cost close to a millisecond of the event loop per token. Only the exact header this server
// issues is accepted, so `alg: none` and algorithm swaps fail before any signature check.
import crypto from 'node:crypto';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export interface Claims {
  sub: string;
  sid: string;
  iss: string;
  iat: number;
  exp: number;
  /** A keyed fingerprint of the password the token was issued under (see sessions.ts). */
  pwd?: string;
}

function mac(key: Uint8Array, input: string): Buffer {
  return crypto.createHmac('sha256', key).update(input).digest();
}

export function signJwt(key: Uint8Array, claims: Claims): string {
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${mac(key, input).toString('base64url')}`;
}

/** The claims of an unexpired token this server signed for `issuer`, or null. */
export function verifyJwt(key: Uint8Array, token: string, issuer: string, nowS = Date.now() / 1000): Claims | null {
  const [header, payload, signature, ...rest] = token.split('.');
  if (header !== HEADER || payload === undefined || signature === undefined || rest.length > 0) return null;
  const expected = mac(key, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  let claims: Partial<Claims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
  } catch {
    return null;
  }
  if (claims.iss !== issuer || typeof claims.exp !== 'number' || claims.exp <= nowS) return null;
  if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.iat !== 'number') return null;
  return claims as Claims;
}
