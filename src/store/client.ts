import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { unmarshallOptions } from '@aws-sdk/util-dynamodb';
import { DynamoSender } from './dynamo-sender';
import { KeyedSha256 } from './keyed-sha256';

export interface ClientOptions {
  /** A DynamoDB-compatible endpoint (DynamoDB Local, Alternator); unset for AWS itself. */
  readonly endpoint?: string;
  readonly region?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Extra SDK settings a runtime needs (e.g. its HTTP handler). */
  readonly sdk?: Partial<DynamoDBClientConfig>;
}

export interface DynamoClients {
  readonly raw: DynamoDBClient;
  /** Numbers read as `NumberValue` (exact text), never as doubles (`exactDocumentClient`). */
  readonly doc: DynamoDBDocumentClient;
  /** The serving routes' item calls and queries: the raw client's parts without its pipeline (./dynamo-sender). */
  readonly calls: DynamoSender;
}

/**
 * One SDK client per process, reused by every request (connection reuse is most of a query's latency).
 * SDK retries are off: shardline retries itself, within the request deadline.
 */
export function createDynamoClients(options: ClientOptions): DynamoClients {
  const raw = new DynamoDBClient({
    maxAttempts: 1,
    region: options.region ?? 'us-east-1',
    ...(options.endpoint && { endpoint: options.endpoint }),
    ...(options.credentials && { credentials: options.credentials }),
    // Every request is signed with an HMAC: see ./keyed-sha256 for what Node 24 charges for its key.
    sha256: KeyedSha256,
    ...options.sdk,
  });
  // The SDK's logger middleware copies every response through its sensitive-data filter even when the
  // logger drops it (docs/performance.md). shardline never hands the SDK a logger.
  raw.middlewareStack.remove('loggerMiddleware');
  return { raw, doc: exactDocumentClient(raw), calls: new DynamoSender(raw) };
}

/**
 * How every door reads DynamoDB's numbers, stream images included: as `NumberValue`, the exact decimal
 * text, never as a double that could round them (./values turns them into core's `ExactNumber`).
 */
export const EXACT_NUMBERS: Readonly<unmarshallOptions> = Object.freeze({ wrapNumbers: true });

/**
 * The one document client of shardline, for the application's items and shardline's own records. A JS
 * number written must lie within ±2^53 (the SDK refuses a larger one): shardline's own records hold small
 * integers and write their 15-digit numeric keys as `NumberValue`s.
 */
export function exactDocumentClient(raw: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
    // A copy: the client's commands set options of their own on the object it is given.
    unmarshallOptions: { ...EXACT_NUMBERS },
  });
}
