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
  readonly createTable: boolean;
  readonly cursorSecret: string | undefined;
  readonly requestTimeoutMs: number;
}

export type EnvMap = Record<string, string | undefined>;

export function readSettings(env: EnvMap): Settings {
  return {
    port: integer(env, 'PORT', 8787, 0, 65535),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    tableName: nonEmpty(env.TABLE_NAME),
    endpoint: nonEmpty(env.DYNAMODB_ENDPOINT),
    region: nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION),
    configPath: nonEmpty(env.SHARDLINE_CONFIG),
    createTable: boolean(env, 'SHARDLINE_CREATE_TABLE', true),
    cursorSecret: nonEmpty(env.CURSOR_SECRET),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 1, 900_000),
  };
}

/** Both DYNAMODB_ENDPOINT and AWS_REGION unset: the Node server runs its embedded engine. */
export function wantsEmbeddedEngine(settings: Settings): boolean {
  return settings.endpoint === undefined && settings.region === undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: EnvMap, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return value;
}

function boolean(env: EnvMap, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, not ${JSON.stringify(env[name])}`);
}
