// Where photos and results are kept (DESIGN §2): files in DATA_DIR/files behind HMAC-signed,
// expiring URLs served by this app, or an S3-compatible bucket with presigned URLs.
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /**
   * A URL the browser PUTs exactly `upload.byteSize` bytes to, with `Content-Type:
   * upload.contentType`, until `expiresS` from now. The storage refuses any other size or type.
   */
  uploadUrl(key: string, upload: UploadBinding, expiresS: number): Promise<string>;
  /** A URL to read the object until `expiresS` from now. */
  downloadUrl(key: string, expiresS: number): Promise<string>;
  /** The object's bytes, or null when there is none. Refuses objects over `maxBytes`. */
  get(key: string, maxBytes: number): Promise<Buffer | null>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What an upload URL is good for: these many bytes of this type, nothing else. */
export interface UploadBinding {
  contentType: string;
  byteSize: number;
}

export class ObjectTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`object of ${bytes} bytes is over the limit`);
    this.name = 'ObjectTooLargeError';
  }
}

/** Upload URLs live at most this long (the issue asks for ≤ 15 minutes). */
export const UPLOAD_URL_LIFETIME_S = 15 * 60;
export const DOWNLOAD_URL_LIFETIME_S = 60 * 60;

/** Object keys this app makes: lower-case path segments and an image extension, nothing else. */
export const STORAGE_KEY_PATTERN = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.(jpg|png|mp4)$/;
