// The embedded default as `npm start` runs it: a real server process on PGlite in DATA_DIR.
// One writer per data directory, a clean shutdown on SIGTERM, and a restart that finds its data.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-embedded-'));
const running: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(port: number): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(port: number, started: Started, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`server exited early:\n${started.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return (await res.json()) as { data: { database: string } };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy:\n${started.output()}`);
}

/** The process's resident memory (Linux). */
function residentBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}
/** Resident memory once healthy after the first start, on a fresh data directory. */
let firstStartRss = 0;

afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// One data directory's life, step by step: the restart needs the first start's directory, so
// these run in the order written even when the suite is shuffled.
describe('the embedded server', { shuffle: false }, () => {
  it('creates and migrates its database on first start, refuses a second writer, and shuts down cleanly', async () => {
    const port = await freePort();
    const first = startServer(port);
    const health = await waitForHealth(port, first, 100_000);
    expect(health.data.database).toBe('pglite');
    firstStartRss = residentBytes(first.child.pid!);
    expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'pg.lock'), 'utf8')).toBe(String(first.child.pid));

    const second = startServer(await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is already in use by another SoleStudio server (pid ${first.child.pid})`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('SIGTERM received, shutting down');
    expect(fs.existsSync(path.join(dataDir, 'pg.lock'))).toBe(false);
  }, 150_000);

  it('starts again on the existing data directory', async () => {
    const port = await freePort();
    const again = startServer(port);
    await waitForHealth(port, again);
    // Creating the data directory (initdb) costs ~800 MB that a WebAssembly memory never gives back;
    // it is done in a child process, so a first start holds no more than a restart does.
    expect(firstStartRss).toBeGreaterThan(0);
    expect(firstStartRss).toBeLessThan(residentBytes(again.child.pid!) + 150 * 1024 * 1024);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/unknown`, { headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(404);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 60_000);

  it('stops with a message naming the variable when the configuration is bad', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'not-a-port', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('PORT:');
  }, 30_000);
});
