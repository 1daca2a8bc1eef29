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

describe('engines by env', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    return [];
  };

  it('has no AI engine and no routes on a bare start', () => {
    const config = loadConfig({});
    expect(config.ai).toBeNull();
    expect(config.comfyui).toBeNull();
    expect(config.engineRoutes).toEqual({});
  });

  it('reads a ComfyUI server, its checkpoints, its deadline and the routes', () => {
    const config = loadConfig({
      COMFYUI_URL: 'http://gpu-box:8188/',
      COMFYUI_TIMEOUT_MS: '90000',
      COMFYUI_CHECKPOINT: 'realisticVision-inpainting.safetensors',
      ENGINE_ROUTES: ' half_body=comfyui , FULL_BODY = ComfyUI,PRODUCT=comfyui',
    });
    expect(config.comfyui).toEqual({
      baseUrl: 'http://gpu-box:8188',
      timeoutMs: 90_000,
      checkpoints: { modelPhoto: 'realisticVision-inpainting.safetensors', background: 'realisticVision-inpainting.safetensors' },
      maxSide: 768,
    });
    expect(config.engineRoutes).toEqual({ HALF_BODY: 'comfyui', FULL_BODY: 'comfyui', PRODUCT: 'comfyui' });
    expect(loadConfig({ COMFYUI_URL: 'http://gpu-box:8188', COMFYUI_BACKGROUND_CHECKPOINT: 'sdxl-inpaint.safetensors' }).comfyui?.checkpoints).toEqual({
      modelPhoto: 'sd-v1-5-inpainting.ckpt',
      background: 'sdxl-inpaint.safetensors',
    });
  });

  it('refuses a route it cannot follow, naming ENGINE_ROUTES and what is wrong', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ ENGINE_ROUTES: 'HALF_BODY=comfyui' }, /HALF_BODY=comfyui, but COMFYUI_URL is not set/],
      [{ ENGINE_ROUTES: 'FULL_BODY=remote' }, /FULL_BODY=remote, but AI_BASE_URL is not set/],
      [{ ENGINE_ROUTES: 'HALF_BODY=studio' }, /the studio engine cannot make HALF_BODY/],
      [{ COMFYUI_URL: 'http://gpu:8188', ENGINE_ROUTES: 'CREATIVE_VIDEO=comfyui' }, /the comfyui engine cannot make CREATIVE_VIDEO/],
      [{ AI_BASE_URL: 'http://ai/v1', ENGINE_ROUTES: 'CREATIVE_VIDEO=remote' }, /AI_VIDEO_MODEL is not set/],
      [{ COMFYUI_URL: 'http://gpu:8188', ENGINE_ROUTES: 'HALF_BODY=gpu' }, /"gpu" is not an engine/],
      [{ COMFYUI_URL: 'http://gpu:8188', ENGINE_ROUTES: 'SHOES=comfyui' }, /"SHOES" is not a category/],
      [{ COMFYUI_URL: 'http://gpu:8188', ENGINE_ROUTES: 'HALF_BODY=comfyui,HALF_BODY=comfyui' }, /HALF_BODY is routed twice/],
      [{ COMFYUI_URL: 'http://gpu:8188', ENGINE_ROUTES: 'HALF_BODY:comfyui' }, /is not CATEGORY=engine/],
    ];
    for (const [env, message] of cases) {
      const problems = problemsOf(env);
      expect(problems, JSON.stringify(env)).toHaveLength(1);
      expect(problems[0]!.variable).toBe('ENGINE_ROUTES');
      expect(problems[0]!.message).toMatch(message);
    }
    expect(() => loadConfig({ COMFYUI_URL: 'http://gpu:8188', ENGINE_ROUTES: 'HALF_BODY=studio' })).toThrow(/ENGINE_ROUTES: the studio engine cannot make HALF_BODY/);
  });

  it('names a bad ComfyUI address or painting size', () => {
    expect(problemsOf({ COMFYUI_URL: 'gpu-box:8188' }).map((p) => p.variable)).toEqual(['COMFYUI_URL']);
    expect(problemsOf({ COMFYUI_URL: 'http://gpu:8188', COMFYUI_MAX_SIDE: '700' })).toEqual([{ variable: 'COMFYUI_MAX_SIDE', message: 'must be a multiple of 64' }]);
    expect(problemsOf({ COMFYUI_URL: 'http://gpu:8188', COMFYUI_TIMEOUT_MS: '10' }).map((p) => p.variable)).toEqual(['COMFYUI_TIMEOUT_MS']);
  });
});

describe('metrics by env', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    return [];
  };

  it('keeps no metrics without METRICS_TOKEN', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: '' }).metrics).toBeNull();
  });

  it('reads the token and a worker\'s metrics port', () => {
    expect(loadConfig({ METRICS_TOKEN: 'a-long-scrape-token-0123' }).metrics).toEqual({ token: 'a-long-scrape-token-0123', workerPort: undefined });
    expect(loadConfig({ METRICS_TOKEN: 'a-long-scrape-token-0123', WORKER_METRICS_PORT: '9464' }).metrics).toEqual({ token: 'a-long-scrape-token-0123', workerPort: 9464 });
  });

  it('refuses a short token, one a header cannot carry, and a worker port without a token', () => {
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual([{ variable: 'METRICS_TOKEN', message: 'must be at least 16 characters' }]);
    expect(problemsOf({ METRICS_TOKEN: 'with a space in it, long enough' })[0]?.variable).toBe('METRICS_TOKEN');
    expect(problemsOf({ WORKER_METRICS_PORT: '9464' })).toEqual([{ variable: 'WORKER_METRICS_PORT', message: 'needs METRICS_TOKEN: a worker serves its metrics only behind the token' }]);
    expect(problemsOf({ METRICS_TOKEN: 'a-long-scrape-token-0123', WORKER_METRICS_PORT: '70000' })[0]?.variable).toBe('WORKER_METRICS_PORT');
  });
});
