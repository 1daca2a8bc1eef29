// The backup file: one gzip-compressed tar (`tar tzf` lists it). Its first entry is the manifest,
// solestudio-backup.json: the format and its version, the app version, the database's migration
// level, the kind (embedded or postgres), where the files live, and every other entry with its
// size and SHA-256. Then the database (database/pglite.tar, PGlite's data directory as it tars
// it, or database/postgres.dump, pg_dump's custom format), then what DATA_DIR holds, under data/.
//
// Reading checks everything a restore trusts before it is trusted: the gzip stream's own CRC and
// length (a flipped byte or a cut-off end), each tar header's checksum, each entry against the
// manifest (name, size, SHA-256; nothing missing, nothing extra), and the manifest's format. The
// tar is read here rather than by a general tar reader, so that every problem has one plain name:
// not a SoleStudio backup, truncated, or damaged.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { Header, Pax } from 'tar';
import { z } from 'zod';

export const MANIFEST_PATH = 'solestudio-backup.json';
export const BACKUP_FORMAT = 'solestudio-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const PGLITE_ENTRY = 'database/pglite.tar';
export const POSTGRES_ENTRY = 'database/postgres.dump';
/** DATA_DIR's files are stored under this prefix. */
export const DATA_PREFIX = 'data/';

const BLOCK = 512;
const MANIFEST_LIMIT = 64 * 1024 * 1024;
const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** A path a restore may write: data/ and relative segments, none of them `.` or `..`. */
export function isSafeDataPath(entry: string): boolean {
  if (!entry.startsWith(DATA_PREFIX)) return false;
  const segments = entry.slice(DATA_PREFIX.length).split('/');
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/[\\\0]/.test(segment));
}

const manifestEntry = z.object({
  path: z.string().refine((entry) => entry === PGLITE_ENTRY || entry === POSTGRES_ENTRY || isSafeDataPath(entry), 'not a path a backup holds'),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mode: z.number().int().min(0).max(0o7777),
});

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  format_version: z.literal(BACKUP_FORMAT_VERSION),
  app_version: z.string(),
  created_at: z.string(),
  kind: z.enum(['embedded', 'postgres']),
  migrations: z
    .object({ count: z.number().int().positive(), last_created_at: z.number().int(), last_hash: z.string(), last_tag: z.string().nullable() })
    .nullable(),
  postgres: z.object({ server_version: z.string(), pg_dump_version: z.string() }).optional(),
  storage: z.object({ kind: z.enum(['local', 's3']), bucket: z.string().optional(), versioning: z.string().optional() }),
  entries: z.array(manifestEntry),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestEntry = z.infer<typeof manifestEntry>;

export type BackupProblem = 'foreign' | 'truncated' | 'damaged' | 'unusable';

/** A backup file a restore will not use, and why, in words for the operator. */
export class BackupRefused extends Error {
  constructor(
    readonly problem: BackupProblem,
    message: string,
  ) {
    super(message);
    this.name = 'BackupRefused';
  }
}

const refusal = {
  foreign: (file: string, why: string) => new BackupRefused('foreign', `${file} is not a SoleStudio backup: ${why}.`),
  truncated: (file: string, why: string) =>
    new BackupRefused('truncated', `${file} is truncated: ${why}. It was cut short when it was copied or written; use a complete copy.`),
  damaged: (file: string, why: string) =>
    new BackupRefused('damaged', `${file} is damaged: ${why}. Its contents changed after it was written; use another copy.`),
};

// ---------------------------------------------------------------------------------------------
// Writing

export class ArchiveWriter {
  private readonly gzip = zlib.createGzip({ level: 1 });
  private readonly out: fs.WriteStream;
  private readonly closed: Promise<void>;

  /** Creates `file`, which must not exist. */
  constructor(private readonly file: string) {
    this.out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    this.out.on('error', (error) => this.gzip.destroy(error));
    this.gzip.pipe(this.out);
    this.closed = new Promise((resolve, reject) => {
      this.out.on('close', resolve);
      this.out.on('error', reject);
      this.gzip.on('error', reject);
    });
    this.closed.catch(() => {});
  }

  private async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  /** Adds one file entry of `size` bytes; its SHA-256. Throws when the body is not `size` bytes. */
  async add(entry: string, size: number, body: Buffer | AsyncIterable<Buffer>, options: { mode?: number; mtime?: Date } = {}): Promise<string> {
    const fields = { path: entry, size, mode: options.mode ?? 0o644, mtime: options.mtime ?? new Date(), uid: 0, gid: 0, uname: '', gname: '', type: 'File' as const };
    const header = Buffer.alloc(BLOCK);
    if (new Header(fields).encode(header, 0)) await this.write(new Pax(fields).encode());
    await this.write(header);
    const hash = crypto.createHash('sha256');
    let written = 0;
    for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
      written += chunk.length;
      if (written > size) break;
      hash.update(chunk);
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`${entry} changed while it was copied (${size} bytes when listed, ${written} when read)`);
    if (padding(size)) await this.write(Buffer.alloc(padding(size)));
    return hash.digest('hex');
  }

  /** Ends the archive and writes it to disk. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(2 * BLOCK));
    this.gzip.end();
    await this.closed;
    const handle = await fs.promises.open(this.file, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  abort(): void {
    this.gzip.destroy();
    this.out.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Bytes of the decompressed stream, taken as the tar needs them; zlib's complaints named. */
class TarSource {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly input: fs.ReadStream;
  private readonly gunzip = zlib.createGunzip({ chunkSize: 256 * 1024 });
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(private readonly file: string) {
    this.input = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    this.input.on('error', (error) => this.gunzip.destroy(error));
    this.input.pipe(this.gunzip);
    this.chunks = this.gunzip[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    let next: IteratorResult<Buffer>;
    try {
      next = await this.chunks.next();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'Z_BUF_ERROR') throw refusal.truncated(this.file, 'it ends in the middle of its compressed data');
      if (code === 'Z_DATA_ERROR') throw refusal.damaged(this.file, `its compressed data does not check out (${(error as Error).message})`);
      throw error;
    }
    if (next.done) return false;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }

  /** Exactly `n` bytes; null at a clean end before any of them. */
  async take(n: number): Promise<Buffer | null> {
    while (this.buffer.length < n) {
      if (!(await this.more())) {
        if (this.buffer.length === 0) return null;
        throw refusal.truncated(this.file, 'it ends in the middle of an entry');
      }
    }
    const taken = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return taken;
  }

  /** `n` bytes, chunk by chunk as they come. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buffer.length === 0 && !(await this.more())) throw refusal.truncated(this.file, 'it ends in the middle of an entry');
      const part = this.buffer.subarray(0, Math.min(left, this.buffer.length));
      this.buffer = this.buffer.subarray(part.length);
      left -= part.length;
      yield part;
    }
  }

  /** Reads to the end (which checks the gzip CRC); false when anything but zeros is left. */
  async drainZeros(): Promise<boolean> {
    do {
      if (this.buffer.some((byte) => byte !== 0)) return false;
      this.buffer = Buffer.alloc(0);
    } while (await this.more());
    return true;
  }

  close(): void {
    this.gunzip.destroy();
    this.input.destroy();
  }
}

interface TarEntry {
  path: string;
  size: number;
  mode: number;
  mtime: Date | undefined;
}

/** The next file entry's header; null at the archive's end. */
async function nextEntry(source: TarSource, file: string): Promise<TarEntry | null> {
  let extended: Pax | undefined;
  for (;;) {
    const block = await source.take(BLOCK);
    if (!block) throw refusal.truncated(file, 'it ends before the end of its archive');
    if (block.every((byte) => byte === 0)) return null;
    const header = new Header(block, 0, extended);
    if (!header.cksumValid) throw refusal.damaged(file, 'an entry header does not check out');
    const size = header.size ?? 0;
    if (header.type === 'ExtendedHeader') {
      const body = await source.take(size + padding(size));
      if (!body) throw refusal.truncated(file, 'it ends in the middle of an entry');
      extended = Pax.parse(body.subarray(0, size).toString('utf8'));
      continue;
    }
    if (header.type !== 'File') throw refusal.damaged(file, `it holds ${header.path ?? 'an entry'}, which is not a file`);
    return { path: header.path ?? '', size, mode: header.mode ?? 0o644, mtime: header.mtime };
  }
}

/** The first bytes of a file, to tell a SoleStudio backup from anything else before reading it. */
function sniff(file: string): Buffer {
  const handle = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(BLOCK);
    return head.subarray(0, fs.readSync(handle, head, 0, BLOCK, 0));
  } finally {
    fs.closeSync(handle);
  }
}

/** The manifest, read from the start of `file`, with its format checked. */
export async function readManifest(file: string): Promise<{ manifest: Manifest; raw: Buffer }> {
  const head = sniff(file);
  if (head.length === 0) throw refusal.foreign(file, 'it is empty');
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    const tar = head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar';
    throw refusal.foreign(file, tar ? 'it is an uncompressed tar archive, and a backup is a .tar.gz made by npm run backup' : 'it is not a gzip-compressed tar archive');
  }
  const source = new TarSource(file);
  try {
    const block = await source.take(BLOCK);
    if (!block) throw refusal.foreign(file, 'it is an empty gzip file');
    const first = new Header(block, 0);
    if (!first.cksumValid) throw refusal.foreign(file, 'it is compressed, but not a tar archive');
    if (first.path !== MANIFEST_PATH || first.type !== 'File') {
      throw refusal.foreign(file, `it begins with ${first.path ?? 'an unnamed entry'}, not with the ${MANIFEST_PATH} a backup begins with`);
    }
    const size = first.size ?? 0;
    if (size > MANIFEST_LIMIT) throw refusal.damaged(file, `its manifest claims ${size} bytes`);
    const raw = await source.take(size);
    if (!raw) throw refusal.truncated(file, 'it ends in its manifest');
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      throw refusal.damaged(file, 'its manifest is not readable JSON');
    }
    const format = (json as { format?: unknown } | null)?.format;
    if (format !== BACKUP_FORMAT) throw refusal.foreign(file, `its manifest names the format ${JSON.stringify(format)}, not ${BACKUP_FORMAT}`);
    const version = (json as { format_version?: unknown }).format_version;
    if (typeof version === 'number' && version > BACKUP_FORMAT_VERSION) {
      throw new BackupRefused(
        'unusable',
        `${file} is a backup of format ${version}, written by a newer SoleStudio; this one reads format ${BACKUP_FORMAT_VERSION}. Restore it with that version or a later one.`,
      );
    }
    const parsed = manifestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw refusal.damaged(file, `its manifest is not one this SoleStudio wrote (${issue?.path.join('.') || 'manifest'}: ${issue?.message ?? 'invalid'})`);
    }
    return { manifest: parsed.data, raw: Buffer.from(raw) };
  } finally {
    source.close();
  }
}

/** Where a verified entry's bytes go (a new file), or null to only check them. */
export type EntrySink = (entry: ManifestEntry) => string | null;

/**
 * Reads the whole of `file` and checks every entry against `manifest` (as readManifest read it),
 * writing each entry's bytes to the file `sink` names; throws BackupRefused at the first problem.
 */
export async function verifyArchive(file: string, manifest: { manifest: Manifest; raw: Buffer }, sink: EntrySink): Promise<void> {
  const listed = new Map(manifest.manifest.entries.map((entry) => [entry.path, entry]));
  const seen = new Set<string>();
  const source = new TarSource(file);
  try {
    const first = await nextEntry(source, file);
    const raw = first ? await source.take(first.size) : null;
    if (!first || first.path !== MANIFEST_PATH || !raw?.equals(manifest.raw)) throw refusal.damaged(file, 'its manifest changed while it was read');
    await source.take(padding(first.size));
    for (;;) {
      const entry = await nextEntry(source, file);
      if (!entry) break;
      const expected = listed.get(entry.path);
      if (!expected || seen.has(entry.path)) throw refusal.damaged(file, `it holds ${entry.path}, which its manifest does not list`);
      seen.add(entry.path);
      if (entry.size !== expected.size) throw refusal.damaged(file, `${entry.path} has ${entry.size} bytes, and its manifest says ${expected.size}`);
      const target = sink(expected);
      const hash = crypto.createHash('sha256');
      const out = target ? fs.createWriteStream(target, { flags: 'wx', mode: expected.mode & 0o777 }) : null;
      const written = out ? new Promise<void>((resolve, reject) => out.on('close', resolve).on('error', reject)) : Promise.resolve();
      try {
        for await (const chunk of source.stream(entry.size)) {
          hash.update(chunk);
          if (out && !out.write(chunk)) await once(out, 'drain');
        }
      } catch (error) {
        out?.destroy();
        await written.catch(() => {});
        throw error;
      }
      out?.end();
      await written;
      await source.take(padding(entry.size));
      if (hash.digest('hex') !== expected.sha256) throw refusal.damaged(file, `${entry.path} does not match its checksum`);
      if (target && entry.mtime) fs.utimesSync(target, entry.mtime, entry.mtime);
    }
    if (!(await source.drainZeros())) throw refusal.damaged(file, 'something follows the end of its archive');
    const missing = manifest.manifest.entries.filter((entry) => !seen.has(entry.path));
    if (missing.length > 0) {
      throw refusal.damaged(file, `it lacks ${missing[0]!.path}${missing.length > 1 ? ` and ${missing.length - 1} more entries` : ''} that its manifest lists`);
    }
  } finally {
    source.close();
  }
}
