import type { LogLevel } from '../http/env';
import type { AwsKeys } from './aws-keys';
import type { ApiKeyGrant } from '../http/middleware/auth';
import { DEFAULT_AUTH_FAILURES_PER_SECOND } from '../http/middleware/rate-limit';
import { DEFAULT_BODY_TIMEOUT_MS } from '../http/read-body';

/** The settings from the environment (Workers: vars and secrets), checked at start so a typo fails loudly. */
export type Settings = Readonly<ReturnType<typeof readSettings>>;

export type EnvMap = Record<string, string | undefined>;

export function readSettings(env: EnvMap) {
  return {
    port: integer(env, 'PORT', 8787, 0, 65535),
    /** The Node server's /healthz on a port (and thread) of its own; unset: on PORT only. */
    healthPort: integer(env, 'HEALTH_PORT', undefined, 0, 65535),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    tableName: nonEmpty(env.TABLE_NAME),
    endpoint: nonEmpty(env.DYNAMODB_ENDPOINT),
    region: nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION),
    configPath: nonEmpty(env.SHARDLINE_CONFIG),
    dataDir: nonEmpty(env.SHARDLINE_DATA_DIR) ?? 'data',
    awsKeys: awsKeys(env),
    createTable: boolean(env, 'SHARDLINE_CREATE_TABLE', true),
    /** Whether a table created at start gets a stream, for the change followers. */
    tableStream: boolean(env, 'SHARDLINE_TABLE_STREAM', true),
    cursorSecret: nonEmpty(env.CURSOR_SECRET),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 1, 900_000),
    /** How old a cached shard-map pointer may get: docs/resharding.md. */
    mapTtlMs: integer(env, 'SHARDLINE_MAP_TTL_MS', 5000, 10, 3_600_000),
    /** Empty: the API is open. */
    apiKeys: parseApiKeys(env.API_KEYS),
    /** Origins allowed to call from a browser; empty: CORS is off; `*`: any. */
    corsOrigins: parseOrigins(env.CORS_ORIGINS),
    maxItemBodyBytes: integer(env, 'MAX_ITEM_BODY_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    maxBatchBodyBytes: integer(env, 'MAX_BATCH_BODY_BYTES', 16 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    /** How long a request's headers, and then its body, may take to arrive whole before a 408. */
    bodyTimeoutMs: integer(refuseOldBodyTimeout(env), 'BODY_TIMEOUT_MS', DEFAULT_BODY_TIMEOUT_MS, 1, 3_600_000),
    /** Per caller (API key); undefined: no limit. */
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', undefined, 1, 1_000_000),
    /** Per client address. */
    authFailuresPerSecond: integer(env, 'AUTH_FAILURES_PER_SECOND', DEFAULT_AUTH_FAILURES_PER_SECOND, 1, 1_000_000),
    /** Per-shard statistics, /stats, /heat and /metrics. */
    metrics: boolean(env, 'SHARDLINE_METRICS', true),
    /** Hedged shard queries: a slow one is sent again at its collection's p95. */
    hedge: boolean(env, 'SHARDLINE_HEDGE', true),
    /** Fleet load records. Unset: on, except over the Node server's embedded engine (node.ts). */
    loadRecords: boolean(env, 'SHARDLINE_LOAD_RECORDS', undefined),
    loadMinuteMs: integer(env, 'SHARDLINE_LOAD_MINUTE_MS', 60_000, 100, 3_600_000),
    loadTtlHours: integer(env, 'SHARDLINE_LOAD_TTL_H', 24, 1, 24 * 365),
    /** How long a reshard run's lease lasts without a heartbeat. */
    reshardLeaseMs: integer(env, 'SHARDLINE_RESHARD_LEASE_MS', 30_000, 100, 3_600_000),
    /** How long the Node server holds a request it sheds before its 503. */
    shedPauseMs: integer(env, 'SHED_PAUSE_MS', 100, 0, 1000),
    /** Counters of the hot-key sketch per collection. */
    hotKeys: integer(env, 'HOT_KEYS', 100, 1, 10_000),
    logLevel: logLevel(env.LOG_LEVEL),
    /** A key that may read /metrics and nothing else. */
    metricsKey: metricsKey(env),
  };
}

function logLevel(raw: string | undefined): LogLevel {
  const level = nonEmpty(raw)?.toLowerCase() ?? 'info';
  if (level === 'info' || level === 'warn' || level === 'error' || level === 'off') return level;
  throw new Error(`LOG_LEVEL must be info, warn, error or off, not ${JSON.stringify(raw)}`);
}

/** AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY when both are given (AWS_SESSION_TOKEN only with them). */
function awsKeys(env: EnvMap): AwsKeys | undefined {
  const accessKeyId = nonEmpty(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.AWS_SECRET_ACCESS_KEY);
  if (accessKeyId === undefined || secretAccessKey === undefined) return undefined;
  const sessionToken = nonEmpty(env.AWS_SESSION_TOKEN);
  return { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) };
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
 * The cursor secret where many instances serve one API (Workers, Lambda): required, as a random key per
 * instance would fail page 2 whenever it lands on another instance than page 1.
 */
export function requireCursorSecret(settings: Settings): void {
  const secret = settings.cursorSecret;
  const bytes = secret === undefined ? 0 : new TextEncoder().encode(secret).length;
  if (bytes >= MIN_CURSOR_SECRET_BYTES) return;
  throw new Error(
    `CURSOR_SECRET must be set to at least ${MIN_CURSOR_SECRET_BYTES} bytes (it is ` +
      `${secret === undefined ? 'unset' : `${bytes} bytes`}): every instance must sign cursors with the same ` +
      "key, or a listing's next page fails on another instance. Make one with: openssl rand -base64 32",
  );
}

/** Both DYNAMODB_ENDPOINT and AWS_REGION unset: the Node server runs its embedded engine. */
export function wantsEmbeddedEngine(settings: Settings): boolean {
  return settings.endpoint === undefined && settings.region === undefined;
}

/**
 * `API_KEYS` = `key:scope,key:scope`, scopes `read` or `write`, the scope after a key's last colon. Errors name
 * the entry by position, never by its text, so a typo never prints key material into a log.
 */
export function parseApiKeys(raw: string | undefined): ApiKeyGrant[] {
  const text = nonEmpty(raw);
  if (text === undefined) return [];
  const seen = new Set<string>();
  return text.split(',').map((entry, i) => {
    const colon = entry.lastIndexOf(':');
    const key = colon < 0 ? '' : entry.slice(0, colon).trim();
    const scope = entry
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (key === '' || (scope !== 'read' && scope !== 'write')) {
      throw new Error(`API_KEYS entry ${i + 1} must be key:read or key:write`);
    }
    if (/\s/.test(key)) throw new Error(`API_KEYS entry ${i + 1}: a key cannot contain whitespace`);
    if (seen.has(key)) throw new Error(`API_KEYS entry ${i + 1} repeats an earlier key`);
    seen.add(key);
    return { key, scope };
  });
}

/** `CORS_ORIGINS` = `*` or a comma-separated list of origins like `https://app.example.com`. */
export function parseOrigins(raw: string | undefined): string[] {
  const text = nonEmpty(raw);
  if (text === undefined) return [];
  const origins = text.split(',').flatMap((origin) => nonEmpty(origin) ?? []);
  for (const origin of origins.filter((one) => one !== '*')) {
    if (!URL.canParse(origin)) {
      throw new Error(`CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin like https://app.example.com`);
    }
    if (new URL(origin).origin !== origin.replace(/\/$/, '')) {
      throw new Error(`CORS_ORIGINS: ${JSON.stringify(origin)} must be scheme://host[:port], without a path`);
    }
  }
  if (origins.includes('*') && origins.length > 1) throw new Error('CORS_ORIGINS: * cannot be combined with origins');
  return origins.map((origin) => origin.replace(/\/$/, ''));
}

/** `env`, refusing BODY_TIMEOUT_MS by its old name (it would otherwise be ignored without a word). */
function refuseOldBodyTimeout(env: EnvMap): EnvMap {
  if (nonEmpty(env.BODY_IDLE_TIMEOUT_MS) === undefined) return env;
  throw new Error(
    "BODY_IDLE_TIMEOUT_MS is now BODY_TIMEOUT_MS: the bound on the whole body's arrival, not on a pause in it",
  );
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
function boolean<Fallback extends boolean | undefined>(env: EnvMap, name: string, fallback: Fallback) {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, not ${JSON.stringify(env[name])}`);
}
