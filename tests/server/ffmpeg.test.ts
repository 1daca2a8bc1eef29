// Which ffmpeg the server makes videos with: FFMPEG_PATH must run, or the server does not start;
// without it, one on PATH, and with none the server starts without videos and says so once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config/env';
import type { DatabaseHandle } from '../../server/db/client';
import { borrowed } from '../support/test-app';
import { openTestDatabase } from '../support/test-database';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-ffmpeg-'));
let database: DatabaseHandle;
/** The test's database, left open when an app closes: each test builds its own app on it. */
let shared: DatabaseHandle;

const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dir, STATIC_DIR: path.join(dir, 'no-web-build'), ...env });

beforeAll(async () => {
  database = await openTestDatabase();
  shared = borrowed(database);
});

afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('FFMPEG_PATH', () => {
  it('stops start-up, naming the variable, when it does not run', async () => {
    const notAProgram = path.join(dir, 'ffmpeg.txt');
    fs.writeFileSync(notAProgram, 'not a program', { mode: 0o755 });
    for (const bad of [path.join(dir, 'missing', 'ffmpeg'), notAProgram]) {
      const started = buildApp({ config: config({ FFMPEG_PATH: bad }), database: shared, logger: false });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(`FFMPEG_PATH: ${bad} does not run`);
    }
  });

  it('makes videos with the one it names', async () => {
    const app = await buildApp({ config: config({ FFMPEG_PATH: '/usr/bin/ffmpeg' }), database: shared, logger: false });
    expect(app.generation.support.ffmpeg).toBe(true);
    await app.close();
  });
});

describe('no ffmpeg at all', () => {
  const PATH = process.env.PATH;
  afterAll(() => {
    process.env.PATH = PATH;
  });

  it('starts without videos and says so once', async () => {
    process.env.PATH = dir;
    const lines: string[] = [];
    const app = await buildApp({ config: config(), database: shared, logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    await app.ready();
    expect(app.generation.support.ffmpeg).toBe(false);
    expect(lines.filter((line) => line.includes('ffmpeg'))).toEqual([expect.stringContaining('creative videos are unavailable')]);
    await app.close();
  });
});
