import type { LogLevel } from '../http/env';
import { type AwsKeys, awsKeys } from './aws-keys';
import type { ApiKeyGrant } from '../http/middleware/auth';
import { DEFAULT_AUTH_FAILURES_PER_SECOND } from '../http/middleware/rate-limit';
import { DEFAULT_BODY_IDLE_MS } from '../http/read-body';

/**
 * The service's settings from its environment (process.env on Node and Lambda,
 * vars and secrets on Workers), checked once at start so a typo fails loudly.
 */
export interface Settings {
  readonly port: number;
  readonly host: string;
  readonly tableName: string | undefined;
  /** A DynamoDB-compatible endpoint; unset means AWS itself (or, on Node, the embedded engine). */
  readonly endpoint: string | undefined;
  readonly region: string | undefined;
  readonly configPath: string | undefined;
  /** Where the embedded engine keeps its data (SHARDLINE_DATA_DIR, default ./data). */
  readonly dataDir: string;
  /** AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN), when both are given. */
  readonly awsKeys: AwsKeys | undefined;
  readonly createTable: boolean;
  /** Whether a table created at start gets a stream for the change followers (SHARDLINE_TABLE_STREAM). */
  readonly tableStream: boolean;
  readonly cursorSecret: string | undefined;
  readonly requestTimeoutMs: number;
  /** How old a cached shard-map pointer may get (SHARDLINE_MAP_TTL_MS); see DESIGN §9. */
  readonly mapTtlMs: number;
  /** Bearer keys and their scopes; empty means the API is open (no API_KEYS set). */
  readonly apiKeys: readonly ApiKey[];
  /** Origins allowed to call from a browser; empty means CORS is off. `*` allows any. */
  readonly corsOrigins: readonly string[];
  /** Largest request body of a single-item write, in bytes. */
  readonly maxItemBodyBytes: number;
  /** Largest request body of a batch write, in bytes. */
  readonly maxBatchBodyBytes: number;
  /** How long a request body may stop arriving before a 408 (BODY_IDLE_TIMEOUT_MS, at most 60 s). */
  readonly bodyIdleTimeoutMs: number;
  /** Requests per second one caller (one API key) may make; undefined means no limit. */
  readonly rateLimitPerSecond: number | undefined;
  /** Failed authentications per second per client address (AUTH_FAILURES_PER_SECOND). */
  readonly authFailuresPerSecond: number;
  /** Per-shard statistics, /stats, /heat and /metrics (SHARDLINE_METRICS, default on). */
  readonly metrics: boolean;
  /** How long the Node server holds a request it sheds before its 503 (SHED_PAUSE_MS, default 100). */
  readonly shedPauseMs: number;
  /** Hedged shard queries: a slow one is sent again at its collection's p95 (SHARDLINE_HEDGE, default on). */
  readonly hedge: boolean;
  /**
   * Fleet load records: each router writes its minute's load per collection (SHARDLINE_LOAD_RECORDS).
   * Unset, on — except over the Node server's embedded engine (src/runtime/node.ts).
   */
  readonly loadRecords: boolean | undefined;
  /** The load records' minute (SHARDLINE_LOAD_MINUTE_MS, default 60,000; tests shorten it). */
  readonly loadMinuteMs: number;
  /** How long load records are kept before DynamoDB's TTL removes them (SHARDLINE_LOAD_TTL_H, default 24). */
  readonly loadTtlHours: number;
  /** How long a reshard run's lease lasts without a heartbeat (SHARDLINE_RESHARD_LEASE_MS, default 30,000). */
  readonly reshardLeaseMs: number;
  /** Counters of the hot-key sketch per collection (HOT_KEYS, default 100). */
  readonly hotKeys: number;
  /** The request log's threshold (LOG_LEVEL: info, warn, error or off; default info). */
  readonly logLevel: LogLevel;
  /** A key that may read /metrics and nothing else (METRICS_KEY; needs API_KEYS). */
  readonly metricsKey: string | undefined;
}

/** One entry of API_KEYS. `write` includes `read`. */
export type ApiKey = ApiKeyGrant;

export type EnvMap = Record<string, string | undefined>;

export function readSettings(env: EnvMap): Settings {
  return {
    port: integer(env, 'PORT', 8787, 0, 65535),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    tableName: nonEmpty(env.TABLE_NAME),
    endpoint: nonEmpty(env.DYNAMODB_ENDPOINT),
    region: nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION),
    configPath: nonEmpty(env.SHARDLINE_CONFIG),
    dataDir: nonEmpty(env.SHARDLINE_DATA_DIR) ?? 'data',
    awsKeys: awsKeys(
      nonEmpty(env.AWS_ACCESS_KEY_ID),
      nonEmpty(env.AWS_SECRET_ACCESS_KEY),
      nonEmpty(env.AWS_SESSION_TOKEN),
    ),
    createTable: boolean(env, 'SHARDLINE_CREATE_TABLE', true),
    tableStream: boolean(env, 'SHARDLINE_TABLE_STREAM', true),
    cursorSecret: nonEmpty(env.CURSOR_SECRET),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 1, 900_000),
    mapTtlMs: integer(env, 'SHARDLINE_MAP_TTL_MS', 5000, 10, 3_600_000),
    apiKeys: parseApiKeys(env.API_KEYS),
    corsOrigins: parseOrigins(env.CORS_ORIGINS),
    maxItemBodyBytes: integer(env, 'MAX_ITEM_BODY_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    maxBatchBodyBytes: integer(env, 'MAX_BATCH_BODY_BYTES', 16 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    bodyIdleTimeoutMs: integer(env, 'BODY_IDLE_TIMEOUT_MS', DEFAULT_BODY_IDLE_MS, 1, 60_000),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', undefined, 1, 1_000_000),
    authFailuresPerSecond: integer(env, 'AUTH_FAILURES_PER_SECOND', DEFAULT_AUTH_FAILURES_PER_SECOND, 1, 1_000_000),
    metrics: boolean(env, 'SHARDLINE_METRICS', true),
    hedge: boolean(env, 'SHARDLINE_HEDGE', true),
    loadRecords: boolean(env, 'SHARDLINE_LOAD_RECORDS', undefined),
    loadMinuteMs: integer(env, 'SHARDLINE_LOAD_MINUTE_MS', 60_000, 100, 3_600_000),
    loadTtlHours: integer(env, 'SHARDLINE_LOAD_TTL_H', 24, 1, 24 * 365),
    reshardLeaseMs: integer(env, 'SHARDLINE_RESHARD_LEASE_MS', 30_000, 100, 3_600_000),
    shedPauseMs: integer(env, 'SHED_PAUSE_MS', 100, 0, 1000),
    hotKeys: integer(env, 'HOT_KEYS', 100, 1, 10_000),
    logLevel: logLevel(env.LOG_LEVEL),
    metricsKey: metricsKey(env),
  };
}

function logLevel(raw: string | undefined): LogLevel {
  const level = nonEmpty(raw)?.toLowerCase() ?? 'info';
  if (level === 'info' || level === 'warn' || level === 'error' || level === 'off') return level;
  throw new Error(`LOG_LEVEL must be info, warn, error or off, not ${JSON.stringify(raw)}`);
}

/** With no API_KEYS the API (and /metrics) is open: a metrics key alone would lock everything else. */
function metricsKey(env: EnvMap): string | undefined {
  const key = nonEmpty(env.METRICS_KEY);
  if (key === undefined) return undefined;
  if (nonEmpty(env.API_KEYS) === undefined) throw new Error('METRICS_KEY needs API_KEYS: without them the API is open');
  if (/\s/.test(key)) throw new Error('METRICS_KEY cannot contain whitespace');
  if (parseApiKeys(env.API_KEYS).some((grant) => grant.key === key)) {
    throw new Error('METRICS_KEY repeats a key of API_KEYS');
  }
  return key;
}

/** The shortest CURSOR_SECRET a deployment of many instances accepts (256 bits). */
export const MIN_CURSOR_SECRET_BYTES = 32;

/**
 * The cursor secret where many instances serve one API (Workers, Lambda): required, and
 * at least 32 bytes. A random key per instance would make page 2 fail whenever it
 * lands on another instance than page 1, so a missing secret stops the start instead.
 */
export function requireCursorSecret(settings: Settings): string {
  const secret = settings.cursorSecret;
  const bytes = secret === undefined ? 0 : new TextEncoder().encode(secret).length;
  if (secret === undefined || bytes < MIN_CURSOR_SECRET_BYTES) {
    throw new Error(
      `CURSOR_SECRET must be set to at least ${MIN_CURSOR_SECRET_BYTES} bytes (it is ` +
        `${secret === undefined ? 'unset' : `${bytes} bytes`}): every instance must sign cursors with the same ` +
        "key, or a listing's next page fails on another instance. Make one with: openssl rand -base64 32",
    );
  }
  return secret;
}

/** Both DYNAMODB_ENDPOINT and AWS_REGION unset: the Node server runs its embedded engine. */
export function wantsEmbeddedEngine(settings: Settings): boolean {
  return settings.endpoint === undefined && settings.region === undefined;
}

/**
 * `API_KEYS` = `key:scope,key:scope`, scopes `read` or `write`. A key may itself hold
 * colons (the scope is what follows the last one). Errors name the entry by position,
 * never by its text, so a typo never prints key material into a log.
 */
export function parseApiKeys(raw: string | undefined): ApiKey[] {
  const text = nonEmpty(raw);
  if (text === undefined) return [];
  const keys: ApiKey[] = [];
  const seen = new Set<string>();
  text.split(',').forEach((entry, i) => {
    const trimmed = entry.trim();
    const colon = trimmed.lastIndexOf(':');
    const key = colon < 0 ? '' : trimmed.slice(0, colon).trim();
    const scope =
      colon < 0
        ? ''
        : trimmed
            .slice(colon + 1)
            .trim()
            .toLowerCase();
    if (key === '' || (scope !== 'read' && scope !== 'write')) {
      throw new Error(`API_KEYS entry ${i + 1} must be key:read or key:write`);
    }
    if (/\s/.test(key)) throw new Error(`API_KEYS entry ${i + 1}: a key cannot contain whitespace`);
    if (seen.has(key)) throw new Error(`API_KEYS entry ${i + 1} repeats an earlier key`);
    seen.add(key);
    keys.push({ key, scope });
  });
  return keys;
}

/** `CORS_ORIGINS` = `*` or a comma-separated list of origins like `https://app.example.com`. */
export function parseOrigins(raw: string | undefined): string[] {
  const text = nonEmpty(raw);
  if (text === undefined) return [];
  const origins = text
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(`CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin like https://app.example.com`);
    }
    if (parsed.origin !== origin.replace(/\/$/, '')) {
      throw new Error(`CORS_ORIGINS: ${JSON.stringify(origin)} must be scheme://host[:port], without a path`);
    }
  }
  if (origins.includes('*') && origins.length > 1) throw new Error('CORS_ORIGINS: * cannot be combined with origins');
  return origins.map((origin) => origin.replace(/\/$/, ''));
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer<Fallback extends number | undefined>(
  env: EnvMap,
  name: string,
  fallback: Fallback,
  min: number,
  max: number,
): number | Fallback {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The flag `name`, or `fallback` when it is unset (`undefined`: the runtime decides). */
function boolean<Fallback extends boolean | undefined>(
  env: EnvMap,
  name: string,
  fallback: Fallback,
): boolean | Fallback {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, not ${JSON.stringify(env[name])}`);
}
