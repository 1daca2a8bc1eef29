// A store's keys at rest: sealed with AES-256-GCM under a key that never lives in the database
// (SECRETS_KEY, or a key file the embedded install makes under DATA_DIR), the connection they
// belong to bound in as associated data, so a sealed secret copied onto another connection's row
// does not open. A sealed value names the key it was sealed with (its fingerprint), so a node
// given another key says so instead of failing as if the value were damaged.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretsKeyMismatch extends Error {
  constructor() {
    super('this secret was sealed with another key: give every node the same SECRETS_KEY');
    this.name = 'SecretsKeyMismatch';
  }
}

export class SecretDamaged extends Error {
  constructor() {
    super('the sealed secret does not open: it was altered, or belongs to another connection');
    this.name = 'SecretDamaged';
  }
}

export interface SecretsKey {
  key: Buffer;
  /** The first 8 hex digits of the key's SHA-256: which key sealed a value, and nothing of the key. */
  fingerprint: string;
}

function keyFrom(material: Buffer): SecretsKey {
  // SECRETS_KEY is text of any form (at least 32 characters): HKDF turns it into 32 bytes.
  const key = Buffer.from(crypto.hkdfSync('sha256', material, Buffer.alloc(0), 'solestudio publisher secrets', 32));
  return { key, fingerprint: crypto.createHash('sha256').update(key).digest('hex').slice(0, 8) };
}

/**
 * The key: SECRETS_KEY when set; otherwise `DATA_DIR/secrets.key`, made once (readable by the
 * server's user only) by the first start that needs it.
 */
export function loadSecretsKey(configured: string | undefined, dataDir: string): SecretsKey {
  if (configured) return keyFrom(Buffer.from(configured, 'utf8'));
  const file = path.join(dataDir, 'secrets.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  if (text.length < 32) throw new Error(`${file} is too short to be a key (delete it only if no store is connected yet)`);
  return keyFrom(Buffer.from(text, 'utf8'));
}

/** `secret` sealed for `binding` (the connection's id, seller and platform). */
export function seal(secrets: SecretsKey, secret: string, binding: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', secrets.key, iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, secrets.fingerprint, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The secret `sealed` holds, if it was sealed with this key for `binding`. */
export function open(secrets: SecretsKey, sealed: string, binding: string): string {
  const [version, fingerprint, iv, tag, body, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined || rest.length > 0) throw new SecretDamaged();
  if (fingerprint !== secrets.fingerprint) throw new SecretsKeyMismatch();
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SecretDamaged();
  const decipher = crypto.createDecipheriv('aes-256-gcm', secrets.key, ivBytes);
  decipher.setAAD(Buffer.from(binding, 'utf8'));
  decipher.setAuthTag(tagBytes);
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDamaged();
  }
}

/** What an answer may show of a secret: its last four characters. */
export function lastFour(secret: string): string {
  return secret.slice(-4);
}
