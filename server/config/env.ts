// Server configuration: environment variables validated once at start-up. A bad value stops
// the server with a message naming the variable (DESIGN §2).
import path from 'node:path';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import type { S3Options } from '../storage/s3';
import { loadPriceList, PriceListError, type PriceList } from '../billing/prices';
import { CATEGORIES, type Category } from '../../contract/enums';
import { ENGINE_NAMES } from '../../contract/content';
import { ROUTABLE, type EngineName, type EngineRoutes } from '../content/catalogue';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Where the embedded database, files and mail live. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL instead of the embedded PGlite, e.g. postgres://user:pass@host:5432/db */
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /** How sellers reach this server; used in links sent by mail. */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** The built web app (npm run build). */
  STATIC_DIR: z.string().min(1).default('./dist'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Trust X-Forwarded-* from a reverse proxy in front of the server. */
  TRUST_PROXY: booleanText.default(false),
  /** Turns the per-route request limits off (benchmarks on loopback only). */
  RATE_LIMIT_DISABLED: booleanText.default(false),
  /** The segmentation keeps its working memory between runs: faster runs, about 2 GB held. */
  NETWORK_MEMORY_KEPT: booleanText.default(false),
  /** Signs access tokens. Unset: a key generated once and kept in the database for every node. */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Send mail through this SMTP server, e.g. smtps://user:pass@smtp.example.com:465 */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('SoleStudio <no-reply@solestudio.app>'),
  /** Tokens credited once when a seller confirms the e-mail address. */
  SIGN_UP_BONUS_TOKENS: z.coerce.number().int().min(0).max(1_000_000).default(50),
  /** An S3-compatible bucket instead of DATA_DIR/files. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** For MinIO and other S3-compatible servers, e.g. http://minio:9000 */
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  S3_FORCE_PATH_STYLE: booleanText.default(false),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Run generation jobs inside this server (set false when `npm run worker` processes do it). */
  RUN_JOBS: booleanText.default(true),
  /** Generation jobs one process works on at once. */
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  /** The ffmpeg program for videos; found on PATH or in the optional npm package when unset. */
  FFMPEG_PATH: z.string().min(1).optional(),
  /** An OpenAI-compatible API for model photos, custom scenes and generative video, e.g. https://api.openai.com/v1 */
  AI_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_IMAGE_MODEL: z.string().min(1).default('gpt-image-1'),
  /** Set to offer generative creative-scene videos from the AI service. */
  AI_VIDEO_MODEL: z.string().min(1).optional(),
  AI_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(180),
  /** A ComfyUI server on the operator's GPU for model photos (and custom scenes where routed), e.g. http://gpu-box:8188 */
  COMFYUI_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** How long one ComfyUI picture may take, its wait in ComfyUI's queue included, before it is cancelled and refunded. */
  COMFYUI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(600_000),
  /** The checkpoint (a file in ComfyUI's models/checkpoints) the model-photo workflow paints with. */
  COMFYUI_CHECKPOINT: z.string().min(1).default('sd-v1-5-inpainting.ckpt'),
  /** The checkpoint the product-background workflow paints with (COMFYUI_CHECKPOINT when unset). */
  COMFYUI_BACKGROUND_CHECKPOINT: z.string().min(1).optional(),
  /** The longer side ComfyUI paints at, a multiple of 64: 768 suits SD 1.5 checkpoints, 1024 SDXL. */
  COMFYUI_MAX_SIDE: z.coerce.number().int().min(256).max(2048).multipleOf(64, 'must be a multiple of 64').default(768),
  /** Which engine makes a category, e.g. HALF_BODY=comfyui,FULL_BODY=comfyui (studio | remote | comfyui). */
  ENGINE_ROUTES: z.string().min(1).optional(),
  /** What one seller may keep in storage (photos, edit uploads and results), in MB. */
  STORAGE_QUOTA_MB: z.coerce.number().int().min(1).max(10_000_000).default(2048),
  /** Days a photo no task uses is kept (a retake, a deleted photo, a draft never sent) before it is deleted. */
  MATERIAL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** Node's environment name: `production` never gets the payment sandbox by default. */
  NODE_ENV: z.string().optional(),
  /**
   * The payment sandbox (hosted test pages, no money moves) for the providers without keys. By
   * default on only where nobody can be charged: an http PUBLIC_URL on this machine, outside
   * production.
   */
  PAYMENTS_SANDBOX: booleanText.optional(),
  /** How late the payment sandbox's notifications arrive; each is sent again three times as late, as providers repeat themselves. */
  SANDBOX_NOTIFY_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(800),
  /** A JSON price list (token packs in USD, the rouble rate) replacing the defaults. */
  PRICES_FILE: z.string().min(1).optional(),
  /** The card provider, Stripe: a secret key and the webhook endpoint's signing secret. */
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_… or rk_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, 'must be a webhook signing secret (whsec_…)').optional(),
  /** Another address for Stripe's API (a test double), e.g. http://127.0.0.1:12111 */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** The local provider, YooKassa: the shop's id and secret key. */
  YOOKASSA_SHOP_ID: z.string().regex(/^\d+$/, 'must be the numeric shop id').optional(),
  YOOKASSA_SECRET_KEY: z.string().min(8).optional(),
  /**
   * Addresses YooKassa's notifications may come from (comma-separated IPs and CIDR ranges, as
   * YooKassa publishes them); others are refused. Behind a proxy, set TRUST_PROXY too.
   */
  YOOKASSA_TRUSTED_IPS: z.string().min(1).optional(),
  /** Another address for YooKassa's API, e.g. http://127.0.0.1:12112/v3 */
  YOOKASSA_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** Seals the keys of the stores sellers connect; every node must have the same. Unset: DATA_DIR/secrets.key. */
  SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Other addresses for the marketplaces' APIs (their local stand-ins). */
  WILDBERRIES_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('https://content-api.wildberries.ru'),
  OZON_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('https://api-seller.ozon.ru'),
  AMAZON_TOKEN_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('https://api.amazon.com/auth/o2/token'),
  /** One address for every Amazon region (a stand-in); unset, each region's own endpoint. */
  AMAZON_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** The demo store this server plays for trying the publisher; by default only where the payment sandbox runs unannounced. */
  DEMO_STORE: booleanText.optional(),
  /** Turns GET /metrics on (Prometheus' format), answered only to `Authorization: Bearer <this>`. Unset: no such route. */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in a header)')
    .optional(),
  /** The port an `npm run worker` process serves its own /metrics on (it has no other port); needs METRICS_TOKEN. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
}).superRefine((env, ctx) => {
  const pairs = [
    ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
    ['YOOKASSA_SHOP_ID', 'YOOKASSA_SECRET_KEY'],
  ] as const;
  for (const [a, b] of pairs) {
    if (Boolean(env[a]) !== Boolean(env[b])) {
      const missing = env[a] ? b : a;
      ctx.addIssue({ code: 'custom', path: [missing], message: `must be set together with ${missing === a ? b : a}` });
    }
  }
  if (env.WORKER_METRICS_PORT !== undefined && !env.METRICS_TOKEN) {
    ctx.addIssue({ code: 'custom', path: ['WORKER_METRICS_PORT'], message: 'needs METRICS_TOKEN: a worker serves its metrics only behind the token' });
  }
  if (env.YOOKASSA_TRUSTED_IPS) {
    for (const problem of addressList(env.YOOKASSA_TRUSTED_IPS).problems) ctx.addIssue({ code: 'custom', path: ['YOOKASSA_TRUSTED_IPS'], message: problem });
  }
  if (env.ENGINE_ROUTES) {
    const routes = parseEngineRoutes(env.ENGINE_ROUTES, {
      remote: env.AI_BASE_URL ? null : 'AI_BASE_URL is not set',
      comfyui: env.COMFYUI_URL ? null : 'COMFYUI_URL is not set',
      video: env.AI_VIDEO_MODEL ? null : 'AI_VIDEO_MODEL is not set',
    });
    for (const message of routes.problems) ctx.addIssue({ code: 'custom', path: ['ENGINE_ROUTES'], message });
  }
});

/** A yes-or-no setting read, as the schema reads it, where the config is not handed (the studio's networks). */
export const envFlag = (name: 'NETWORK_MEMORY_KEPT') => envSchema.shape[name].parse(process.env[name]);

/**
 * ENGINE_ROUTES (`HALF_BODY=comfyui, FULL_BODY=comfyui`): the engine per category, and what is
 * wrong with it — an unknown category or engine, a category named twice, an engine that is not
 * configured or cannot make anything of the category. `missing` says why an engine is unusable.
 */
function parseEngineRoutes(
  text: string,
  missing: { remote: string | null; comfyui: string | null; video: string | null },
): { routes: EngineRoutes; problems: string[] } {
  const routes: EngineRoutes = {};
  const problems: string[] = [];
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const [key, value, ...rest] = item.split('=').map((part) => part.trim());
    if (!key || !value || rest.length > 0) {
      problems.push(`"${item}" is not CATEGORY=engine`);
      continue;
    }
    const category = key.toUpperCase() as Category;
    const engine = value.toLowerCase() as EngineName;
    if (!CATEGORIES.includes(category)) {
      problems.push(`"${key}" is not a category (${CATEGORIES.join(', ')})`);
      continue;
    }
    if (!ENGINE_NAMES.includes(engine)) {
      problems.push(`"${value}" is not an engine (${ENGINE_NAMES.join(', ')})`);
      continue;
    }
    if (routes[category]) {
      problems.push(`${category} is routed twice`);
      continue;
    }
    if (!ROUTABLE[engine].includes(category)) {
      problems.push(`the ${engine} engine cannot make ${category}; it makes ${ROUTABLE[engine].join(', ')}`);
      continue;
    }
    const unusable = engine === 'studio' ? null : (missing[engine] ?? (engine === 'remote' && category === 'CREATIVE_VIDEO' ? missing.video : null));
    if (unusable) {
      problems.push(`${category}=${engine}, but ${unusable}`);
      continue;
    }
    routes[category] = engine;
  }
  return { routes, problems };
}

export type Env = z.infer<typeof envSchema>;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Directory of the embedded database, used when `databaseUrl` is not set. */
  pgliteDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  staticDir: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  rateLimitDisabled: boolean;
  authSecret: string | undefined;
  /** Where mail goes: an SMTP server, or .eml files in DATA_DIR/mail. */
  smtpUrl: string | undefined;
  mailDir: string;
  mailFrom: string;
  signUpBonusTokens: number;
  filesDir: string;
  /** An S3-compatible bucket instead of `filesDir`, when S3_BUCKET is set. */
  s3: S3Options | null;
  runJobs: boolean;
  jobConcurrency: number;
  ffmpegPath: string | undefined;
  /** The remote AI engine, when AI_BASE_URL is set. */
  ai: AiOptions | null;
  /** The ComfyUI engine, when COMFYUI_URL is set. */
  comfyui: ComfyUiOptions | null;
  /** The engine ENGINE_ROUTES names per category; the others go where they always would. */
  engineRoutes: EngineRoutes;
  materialRetentionDays: number;
  /** What one seller may keep in storage, in bytes. */
  storageQuotaBytes: number;
  sandboxNotifyDelayMs: number;
  /**
   * Whether the payment sandbox stands in for the providers without keys. When it is on where a
   * seller could think money moves (`sandboxWarning`), every page and the log say it does not.
   */
  paymentsSandbox: boolean;
  sandboxWarning: boolean;
  /** The token packs and the rouble rate. */
  prices: PriceList;
  /** The card provider; absent (or the sandbox, where it runs) when null. */
  stripe: { secretKey: string; webhookSecret: string; apiBase: string | undefined } | null;
  /** The local provider; absent (or the sandbox, where it runs) when null. */
  yookassa: { shopId: string; secretKey: string; apiUrl: string | undefined; trustedIps: BlockList | null } | null;
  publisher: PublisherOptions;
  /** GET /metrics and what it is answered to; null when METRICS_TOKEN is unset (no metrics are kept). */
  metrics: { token: string; workerPort: number | undefined } | null;
}

export interface PublisherOptions {
  secretsKey: string | undefined;
  wildberriesUrl: string;
  ozonUrl: string;
  amazonTokenUrl: string;
  amazonApiUrl: string | undefined;
  /** Whether the demo store is offered: never where a seller could take it for a real one. */
  demoStore: boolean;
}

export interface AiOptions {
  baseUrl: string;
  apiKey: string | undefined;
  imageModel: string;
  videoModel: string | undefined;
  timeoutMs: number;
}

export interface ComfyUiOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Checkpoint file names as ComfyUI lists them, per workflow. */
  checkpoints: { modelPhoto: string; background: string };
  /** The longer side of what ComfyUI is asked to paint. */
  maxSide: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/** A list of IPs and CIDR ranges (`185.71.76.0/27, 77.75.156.11, 2a02:5180::/32`), and what is wrong with it. */
function addressList(text: string): { list: BlockList; problems: string[] } {
  const list = new BlockList();
  const problems: string[] = [];
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const [address = '', bits, ...rest] = item.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (!family || rest.length > 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
      problems.push(`"${item}" is not an IP address or a CIDR range`);
      continue;
    }
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return { list, problems };
}

/** An http address on this machine (localhost, 127.0.0.0/8, [::1]): nobody else reaches it, so nobody pays there. */
export function isLocalHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:') return false;
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

/** Reads the configuration from an environment; throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as a shell user expects from `FOO= npm start`.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(environment)'),
        message: issue.message,
      })),
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const local = isLocalHttp(publicUrl) && e.NODE_ENV !== 'production';
  const paymentsSandbox = e.PAYMENTS_SANDBOX ?? local;
  let prices: PriceList;
  try {
    prices = loadPriceList(e.PRICES_FILE);
  } catch (error) {
    if (error instanceof PriceListError) throw new ConfigError([{ variable: 'PRICES_FILE', message: error.message }]);
    throw error;
  }
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
    pgliteDir: path.join(dataDir, 'pg'),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    staticDir: path.resolve(e.STATIC_DIR),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimitDisabled: e.RATE_LIMIT_DISABLED,
    authSecret: e.AUTH_SECRET,
    smtpUrl: e.SMTP_URL,
    mailDir: path.join(dataDir, 'mail'),
    mailFrom: e.MAIL_FROM,
    signUpBonusTokens: e.SIGN_UP_BONUS_TOKENS,
    filesDir: path.join(dataDir, 'files'),
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        }
      : null,
    runJobs: e.RUN_JOBS,
    jobConcurrency: e.JOB_CONCURRENCY,
    ffmpegPath: e.FFMPEG_PATH,
    ai: e.AI_BASE_URL
      ? {
          baseUrl: e.AI_BASE_URL.replace(/\/+$/, ''),
          apiKey: e.AI_API_KEY,
          imageModel: e.AI_IMAGE_MODEL,
          videoModel: e.AI_VIDEO_MODEL,
          timeoutMs: e.AI_TIMEOUT_S * 1000,
        }
      : null,
    comfyui: e.COMFYUI_URL
      ? {
          baseUrl: e.COMFYUI_URL.replace(/\/+$/, ''),
          timeoutMs: e.COMFYUI_TIMEOUT_MS,
          checkpoints: { modelPhoto: e.COMFYUI_CHECKPOINT, background: e.COMFYUI_BACKGROUND_CHECKPOINT ?? e.COMFYUI_CHECKPOINT },
          maxSide: e.COMFYUI_MAX_SIDE,
        }
      : null,
    // Checked by the schema: every route here is usable.
    engineRoutes: e.ENGINE_ROUTES ? parseEngineRoutes(e.ENGINE_ROUTES, { remote: null, comfyui: null, video: null }).routes : {},
    materialRetentionDays: e.MATERIAL_RETENTION_DAYS,
    storageQuotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
    sandboxNotifyDelayMs: e.SANDBOX_NOTIFY_DELAY_MS,
    paymentsSandbox,
    sandboxWarning: paymentsSandbox && !local,
    prices,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE }
        : null,
    yookassa:
      e.YOOKASSA_SHOP_ID && e.YOOKASSA_SECRET_KEY
        ? {
            shopId: e.YOOKASSA_SHOP_ID,
            secretKey: e.YOOKASSA_SECRET_KEY,
            apiUrl: e.YOOKASSA_API_URL?.replace(/\/+$/, ''),
            trustedIps: e.YOOKASSA_TRUSTED_IPS ? addressList(e.YOOKASSA_TRUSTED_IPS).list : null,
          }
        : null,
    publisher: {
      secretsKey: e.SECRETS_KEY,
      wildberriesUrl: e.WILDBERRIES_API_URL.replace(/\/+$/, ''),
      ozonUrl: e.OZON_API_URL.replace(/\/+$/, ''),
      amazonTokenUrl: e.AMAZON_TOKEN_URL,
      amazonApiUrl: e.AMAZON_API_URL?.replace(/\/+$/, ''),
      demoStore: e.DEMO_STORE ?? local,
    },
    metrics: e.METRICS_TOKEN ? { token: e.METRICS_TOKEN, workerPort: e.WORKER_METRICS_PORT } : null,
  };
}
