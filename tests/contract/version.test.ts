import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION_BASELINE, compareVersions, versionInfoSchema } from '../../contract/version';

describe('compareVersions', () => {
  it.each([
    ['2.0.1', '2.0.0', 1],
    ['2.1.0', '2.0.9', 1],
    ['10.0.0', '9.9.9', 1],
    ['2.0.0', '2.0.0', 0],
    ['1.9.9', '2.0.0', -1],
    ['2.0.0', '2.0.10', -1],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });

  it('runs this repository at or above the baseline of SPEC §9', () => {
    // package.json gives the running app its version (__APP_VERSION__) and /version.json its own;
    // the build refuses a version below the baseline (build/version-file.ts, tested there).
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(VERSION_BASELINE).toBe('2.0.0');
    expect(compareVersions(pkg.version, VERSION_BASELINE)).toBeGreaterThanOrEqual(0);
  });
});

describe('versionInfoSchema', () => {
  const valid = { version: '2.1.0', changelog: { ru: 'а', en: 'a', zh: '甲' }, forceUpdate: false };

  it('accepts a complete version file', () => {
    expect(versionInfoSchema.parse(valid)).toEqual(valid);
  });

  it('requires a changelog in every language', () => {
    expect(versionInfoSchema.safeParse({ ...valid, changelog: { ru: 'а', en: 'a' } }).success).toBe(false);
  });

  it('rejects a version that is not MAJOR.MINOR.PATCH', () => {
    expect(versionInfoSchema.safeParse({ ...valid, version: '2.1' }).success).toBe(false);
    expect(versionInfoSchema.safeParse({ ...valid, version: 'v2.1.0' }).success).toBe(false);
  });
});
