// S3-compatible object storage (AWS S3, MinIO) with presigned URLs, for when one machine's disk
// is not enough (DESIGN §2).
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ObjectTooLargeError, type ObjectStorage, type UploadBinding } from './storage';

export interface S3Options {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

function notFound(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

type Sdk = typeof ClientS3 & { getSignedUrl: typeof getSignedUrl };

export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  /** Loads the AWS SDK only when S3 is configured: it costs start-up time otherwise. */
  static async create(options: S3Options): Promise<S3Storage> {
    const [client, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
    return new S3Storage(options, { ...client, getSignedUrl: presigner.getSignedUrl });
  }

  private constructor(
    private readonly options: S3Options,
    private readonly sdk: Sdk,
  ) {
    const { S3Client } = sdk;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // A browser PUT to a presigned URL carries no SDK checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * Content-Length and Content-Type are signed headers of the URL: the bucket refuses a body of any
   * other size, or another type, as a signature that does not match (403).
   */
  uploadUrl(key: string, { contentType, byteSize }: UploadBinding, expiresS: number) {
    return this.sdk.getSignedUrl(
      this.client,
      new this.sdk.PutObjectCommand({ Bucket: this.options.bucket, Key: key, ContentType: contentType, ContentLength: byteSize }),
      // The presigner leaves Content-Type out of the signature unless told to sign it.
      { expiresIn: expiresS, signableHeaders: new Set(['content-type', 'content-length']) },
    );
  }

  downloadUrl(key: string, expiresS: number) {
    return this.sdk.getSignedUrl(this.client, new this.sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn: expiresS,
    });
  }

  async get(key: string, maxBytes: number) {
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      if ((head.ContentLength ?? 0) > maxBytes) throw new ObjectTooLargeError(head.ContentLength ?? 0);
      const object = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      const bytes = await object.Body?.transformToByteArray();
      return bytes ? Buffer.from(bytes) : Buffer.alloc(0);
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async put(key: string, body: Buffer, contentType: string) {
    await this.client.send(
      new this.sdk.PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async delete(key: string) {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  /**
   * Whether the bucket keeps earlier versions of what is overwritten or deleted (what a restore
   * of the database to an earlier time needs): S3 answers Enabled or Suspended, or nothing for a
   * bucket where it was never turned on.
   */
  async versioning(): Promise<'Enabled' | 'Suspended' | 'Off'> {
    const answer = await this.client.send(new this.sdk.GetBucketVersioningCommand({ Bucket: this.options.bucket }));
    return answer.Status ?? 'Off';
  }

  close() {
    this.client.destroy();
  }
}

/**
 * The origin the browser reaches the bucket at (for the Content-Security-Policy), as the SDK
 * addresses it: path-style or virtual-hosted, a custom endpoint or AWS's regional one.
 */
export async function bucketOrigin(options: S3Options): Promise<string> {
  const storage = await S3Storage.create(options);
  try {
    return new URL(await storage.downloadUrl('origin.jpg', 60)).origin;
  } finally {
    storage.close();
  }
}
