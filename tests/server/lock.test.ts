import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDirectory } from '../../server/db/lock';

const dir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-lock-')), 'pg');
const created: string[] = [];
afterEach(() => created.splice(0).forEach((d) => fs.rmSync(path.dirname(d), { recursive: true, force: true })));

describe('lockDirectory', () => {
  it('writes the owner pid and removes the lock on release', () => {
    const directory = dir();
    created.push(directory);
    const lock = lockDirectory(directory);
    expect(fs.readFileSync(`${directory}.lock`, 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(`${directory}.lock`)).toBe(false);
  });

  it('refuses a directory locked by a running process', () => {
    const directory = dir();
    created.push(directory);
    const other = process.ppid; // alive for the whole test
    fs.writeFileSync(`${directory}.lock`, String(other));
    expect(() => lockDirectory(directory)).toThrow(DataDirLockedError);
    expect(() => lockDirectory(directory)).toThrow(`pid ${other}`);
  });

  it('takes over a lock whose owner has exited', () => {
    const directory = dir();
    created.push(directory);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.writeFileSync(`${directory}.lock`, gone);
    const lock = lockDirectory(directory);
    expect(fs.readFileSync(`${directory}.lock`, 'utf8')).toBe(String(process.pid));
    lock.release();
  });
});
