// Starts the real server as `npm start` would (without the build step) and times it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  /** Milliseconds from spawning the process to the first healthy answer. */
  startMs: number;
  /** The server process's id (its CPU in /proc). */
  pid: number;
  /** The server process's resident memory now (Linux: /proc). */
  residentBytes(): number;
  stop(): Promise<void>;
  /** Ends the process at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Null while the process runs; then its exit code or the signal that ended it. */
  ended(): string | null;
}

/** Which program runs, on which port, and the address that answers once it is up. */
interface Program {
  script: string;
  portVariable: string;
  readyPath: string;
  headers?: Record<string, string>;
}

const API_NODE: Program = { script: 'dist-server/server.js', portVariable: 'PORT', readyPath: '/api/health' };

/**
 * Starts the server, or another program of the build: a worker (`npm run worker`) is up once its
 * own /metrics answers on WORKER_METRICS_PORT. Its log (stdout) goes to `logFile` when given.
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  { program = API_NODE, logFile }: { program?: Program; logFile?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // What `npm start` (`npm run worker`) runs once the build is current (bench/run.ts builds first).
  const log = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const child: ChildProcess = spawn(process.execPath, [program.script], {
    cwd: ROOT,
    env: { ...process.env, [program.portVariable]: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', log, 'inherit'],
  });
  if (typeof log === 'number') fs.closeSync(log);
  let ended: string | null = null;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      ended = signal ?? `exit code ${code}`;
      resolve();
    }),
  );
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${program.script} exited during start-up`);
    try {
      if ((await fetch(`${url}${program.readyPath}`, { headers: program.headers })).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const startMs = performance.now() - started;
  return {
    url,
    startMs,
    pid: child.pid!,
    residentBytes: () => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    ended: () => ended,
  };
}
