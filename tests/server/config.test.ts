import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config/env';

describe('loadConfig', () => {
  it('has working defaults for npm start', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.pgliteDir).toBe(path.resolve('data', 'pg'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.staticDir).toBe(path.resolve('dist'));
    expect(config.rateLimitDisabled).toBe(false);
  });

  it('does not read NODE_ENV: whatever a platform sets it to, the server starts the same', () => {
    expect(loadConfig({ NODE_ENV: 'staging' })).toEqual(loadConfig({}));
  });

  it('reads the variables it knows', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/srv/solestudio',
      DATABASE_URL: 'postgres://app:pw@db:5432/solestudio',
      PUBLIC_URL: 'https://studio.example.com/',
      TRUST_PROXY: 'true',
    });
    expect(config.port).toBe(9000);
    expect(config.pgliteDir).toBe('/srv/solestudio/pg');
    expect(config.databaseUrl).toBe('postgres://app:pw@db:5432/solestudio');
    expect(config.publicUrl).toBe('https://studio.example.com');
    expect(config.trustProxy).toBe(true);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
  });

  it('names every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x/y', LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = (error as ConfigError).problems.map((p) => p.variable).sort();
    expect(variables).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT']);
    expect((error as Error).message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  });
});
