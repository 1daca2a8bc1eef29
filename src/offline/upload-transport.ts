// How a runtime (the page or the service worker) talks to the server for the outbox: what each
// job kind asks of it. transport.ts is the one implementation; tests put faults in front of it.
import type { AssetCreateItem } from '../../contract/assets';
import type { EditUploadDescription } from '../../contract/materials';
import type { DeleteJob, GenerateJob, PhotoRecord, UploadJob } from './records';

/** How a runtime (page or service worker) talks to the server. */
export interface UploadTransport {
  /**
   * POST /api/v1/materials/upload with `job.id` as Idempotency-Key. No upload URL when the server
   * already accepted the photo under this key (the answer to its upload was lost).
   */
  register(job: UploadJob, photo: PhotoRecord): Promise<{ materialId: string; uploadUrl: string | null }>;
  /** PUT the bytes to the URL the server gave, telling `progress` how many have gone, where it can. */
  put(url: string, photo: PhotoRecord, progress?: (sent: number, total: number) => void): Promise<void>;
  /**
   * Whether `put` tells `progress` how much has gone as the bytes go, the last byte included, before
   * the server answers (the page's XMLHttpRequest does; fetch cannot).
   */
  readonly tellsProgress: boolean;
  /** POST /api/v1/content/generate with `job.id` as Idempotency-Key; the server's task id. */
  generate(job: GenerateJob, materialIds: string[]): Promise<{ taskId: string }>;
  /** DELETE /api/v1/materials/{job.materialId}, or /api/v1/materials/by-key/{job.uploadKey}. */
  remove(job: DeleteJob): Promise<void>;
  /** POST /api/v1/materials/upload of a file an edit saves, with `key` as Idempotency-Key. */
  registerFile(key: string, photo: PhotoRecord, description: EditUploadDescription): Promise<RegisteredFile>;
  /** POST /api/v1/content/assets/batch-create with `key` as Idempotency-Key; the new assets' ids. */
  createAssets(key: string, items: AssetCreateItem[]): Promise<string[]>;
}

/**
 * A file registered for upload: where to PUT it (null once the server accepted it), and its key
 * and address once stored (SPEC §3).
 */
export interface RegisteredFile {
  materialId: string;
  uploadUrl: string | null;
  fileKey: string;
  publicUrl: string;
}
