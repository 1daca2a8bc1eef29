// Embedded object storage: files under DATA_DIR/files. The app serves them at
// /api/v1/storage/<key>; every URL carries an HMAC over the operation, the key, the expiry and
// (for uploads) the content type and the size, so it works for one object, one purpose, one
// declared file, for a short time.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ObjectTooLargeError, STORAGE_KEY_PATTERN, type ObjectStorage, type UploadBinding } from './storage';
import type { HeldDeletes } from './delete-hold';

export const LOCAL_STORAGE_PREFIX = '/api/v1/storage/';

export type StorageOperation = 'put' | 'get';

export interface SignedRequest {
  op: StorageOperation;
  key: string;
  exp: number;
  contentType: string;
  /** The bytes an upload must have; null for a read. */
  byteSize: number | null;
  sig: string;
}

export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  private readonly key: Buffer;

  constructor(
    private readonly root: string,
    signingKey: Uint8Array,
    /** Deletes wait while a backup copies the files (see delete-hold.ts). */
    private readonly held?: HeldDeletes,
  ) {
    // A key of its own, so a storage signature can never pass for any other signature.
    this.key = crypto.createHmac('sha256', signingKey).update('solestudio/storage-urls').digest();
  }

  private signature(op: StorageOperation, key: string, exp: number, contentType: string, byteSize: number | null): string {
    return crypto
      .createHmac('sha256', this.key)
      .update(`${op}\n${key}\n${exp}\n${contentType}\n${byteSize ?? ''}`)
      .digest('base64url');
  }

  private url(op: StorageOperation, key: string, expiresS: number, upload?: UploadBinding): string {
    const exp = Math.floor(Date.now() / 1000) + expiresS;
    const query = new URLSearchParams({ op, exp: String(exp), sig: this.signature(op, key, exp, upload?.contentType ?? '', upload?.byteSize ?? null) });
    if (upload) {
      query.set('ct', upload.contentType);
      query.set('len', String(upload.byteSize));
    }
    // Relative: it works whichever address the phone used to reach this server.
    return `${LOCAL_STORAGE_PREFIX}${key}?${query}`;
  }

  /** True when a request carries a valid, unexpired signature for exactly this operation. */
  verify({ op, key, exp, contentType, byteSize, sig }: SignedRequest, nowS = Date.now() / 1000): boolean {
    if (!STORAGE_KEY_PATTERN.test(key) || !Number.isInteger(exp) || exp < nowS) return false;
    const expected = Buffer.from(this.signature(op, key, exp, contentType, byteSize));
    const given = Buffer.from(sig);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }

  private file(key: string): string {
    if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`not a storage key: ${key}`);
    return path.join(this.root, key);
  }

  async uploadUrl(key: string, upload: UploadBinding, expiresS: number) {
    return this.url('put', key, expiresS, upload);
  }

  async downloadUrl(key: string, expiresS: number) {
    return this.url('get', key, expiresS);
  }

  async get(key: string, maxBytes: number) {
    const file = this.file(key);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat) return null;
    if (stat.size > maxBytes) throw new ObjectTooLargeError(stat.size);
    return fs.readFile(file);
  }

  async put(key: string, body: Buffer) {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${crypto.randomBytes(4).toString('hex')}.part`;
    await fs.writeFile(partial, body);
    this.held?.forget(key);
    await fs.rename(partial, file);
  }

  async delete(key: string) {
    const file = this.file(key);
    const remove = () => fs.rm(file, { force: true });
    await (this.held ? this.held.run(key, remove) : remove());
  }

  /** Runs the deletes a backup held, if it is over (at shutdown). */
  async settleDeletes(): Promise<void> {
    await this.held?.settle();
    this.held?.stop();
  }
}
