// How `npm run backup` gets the embedded database from the server that holds it. PGlite lives in
// the server's process and the data directory is locked to it (db/lock.ts): no other process may
// open it while it serves, and copying its files from outside would catch them mid-write. So the
// server listens on a Unix socket in DATA_DIR, readable by the server's user only (as the data
// directory itself is), and answers one request there: a consistent copy of its database
// (db/snapshot.ts). Nothing reaches it over the network, and reaching it needs what reading
// DATA_DIR needs.
//
// The exchange: the backup sends one JSON line, {"op":"snapshot"}; the server answers one JSON
// line, {"ok":true,"bytes":N,"migrations":{…}} followed by the N bytes of PGlite's data-directory
// tar, or {"ok":false,"error":"…"}, and closes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { DatabaseSnapshot } from '../db/snapshot';
import type { AppliedMigrations } from '../db/migration-level';

export const SOCKET_FILE = 'backup.sock';
/** Unix socket paths are short (108 bytes with the terminating zero on Linux, 104 on macOS). */
const LONGEST_SOCKET_PATH = 103;
const HEADER_LIMIT = 64 * 1024;

export function socketPathOf(dataDir: string): string {
  return path.join(dataDir, SOCKET_FILE);
}

export class SocketPathTooLong extends Error {
  constructor(file: string) {
    super(
      `${file} is longer than a Unix socket path may be (${LONGEST_SOCKET_PATH} bytes), so this server cannot be backed up while it ` +
        'runs. Use a DATA_DIR with a shorter path.',
    );
    this.name = 'SocketPathTooLong';
  }
}

function checkedSocketPath(dataDir: string): string {
  const file = socketPathOf(dataDir);
  if (Buffer.byteLength(file) > LONGEST_SOCKET_PATH) throw new SocketPathTooLong(file);
  return file;
}

/** The server's side: answers snapshot requests on DATA_DIR/backup.sock until closed. */
export async function serveSnapshots(options: {
  dataDir: string;
  snapshot: () => Promise<DatabaseSnapshot>;
  onSnapshot?: (bytes: number, ms: number) => void;
  onError?: (error: unknown) => void;
}): Promise<{ close(): Promise<void> }> {
  const file = checkedSocketPath(options.dataDir);
  // Only the server holding DATA_DIR's database lock gets here: a socket file left behind is a
  // stopped server's.
  fs.rmSync(file, { force: true });
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    let request = '';
    const onData = (chunk: Buffer) => {
      request += chunk.toString('utf8');
      if (request.length > HEADER_LIMIT) {
        socket.destroy();
        return;
      }
      const end = request.indexOf('\n');
      if (end < 0) return;
      socket.off('data', onData);
      void answer(socket, request.slice(0, end));
    };
    socket.on('data', onData);
  });
  const answer = async (socket: net.Socket, line: string) => {
    let op: unknown;
    try {
      op = (JSON.parse(line) as { op?: unknown }).op;
    } catch {
      op = null;
    }
    if (op !== 'snapshot') {
      socket.end(`${JSON.stringify({ ok: false, error: 'unknown request' })}\n`);
      return;
    }
    const started = Date.now();
    try {
      const snapshot = await options.snapshot();
      const bytes = Buffer.from(await snapshot.data.arrayBuffer());
      options.onSnapshot?.(bytes.length, Date.now() - started);
      socket.write(`${JSON.stringify({ ok: true, bytes: bytes.length, migrations: snapshot.migrations })}\n`);
      socket.end(bytes);
    } catch (error) {
      options.onError?.(error);
      socket.end(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) })}\n`);
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(file, 0o600);
  return {
    // A backup still receiving is cut off: it fails and says so, the server does not wait for it.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
        fs.rmSync(file, { force: true });
      }),
  };
}

export class SnapshotUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotUnavailable';
  }
}

interface SnapshotHeader {
  ok: boolean;
  bytes?: number;
  error?: string;
  migrations?: AppliedMigrations | null;
}

export interface ReceivedSnapshot {
  bytes: number;
  sha256: string;
  migrations: AppliedMigrations | null;
}

/** The backup's side: asks the server holding DATA_DIR for its database and writes it to `target`. */
export async function requestSnapshot(dataDir: string, target: string, ownerPid: number): Promise<ReceivedSnapshot> {
  const file = checkedSocketPath(dataDir);
  const socket = net.connect(file);
  const out = fs.createWriteStream(target, { mode: 0o600 });
  const hash = crypto.createHash('sha256');
  try {
    return await new Promise<ReceivedSnapshot>((resolve, reject) => {
      let header = null as SnapshotHeader | null;
      let pending = Buffer.alloc(0);
      let received = 0;
      out.on('error', reject);
      socket.on('connect', () => socket.write(`${JSON.stringify({ op: 'snapshot' })}\n`));
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
          reject(
            new SnapshotUnavailable(
              `The server holding ${dataDir} (pid ${ownerPid}) does not answer on ${file}. It may be an older SoleStudio, or ` +
                'still starting: restart it with this version, or wait until it serves, then run the backup again.',
            ),
          );
        } else reject(error);
      });
      socket.on('data', (chunk: Buffer) => {
        if (!header) {
          pending = Buffer.concat([pending, chunk]);
          const end = pending.indexOf(0x0a);
          if (end < 0) {
            if (pending.length > HEADER_LIMIT) socket.destroy(new Error('the server answered something that is not a snapshot'));
            return;
          }
          try {
            header = JSON.parse(pending.subarray(0, end).toString('utf8')) as SnapshotHeader;
          } catch {
            reject(new SnapshotUnavailable(`Something other than a SoleStudio server answers on ${file}.`));
            socket.destroy();
            return;
          }
          if (!header.ok) {
            reject(new SnapshotUnavailable(`The server could not copy its database: ${header.error ?? 'no reason given'}`));
            socket.destroy();
            return;
          }
          chunk = pending.subarray(end + 1);
        }
        received += chunk.length;
        hash.update(chunk);
        if (!out.write(chunk)) {
          socket.pause();
          out.once('drain', () => socket.resume());
        }
      });
      socket.on('end', () => {
        if (!header?.ok) return reject(new SnapshotUnavailable('The server closed the connection without sending its database.'));
        if (received !== header.bytes) {
          return reject(new SnapshotUnavailable(`The server sent ${received} of ${header.bytes} bytes of its database; run the backup again.`));
        }
        out.end(() => resolve({ bytes: received, sha256: hash.digest('hex'), migrations: header?.migrations ?? null }));
      });
    });
  } finally {
    socket.destroy();
    out.destroy();
  }
}
