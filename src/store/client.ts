import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { exactDocumentClient } from './document-client';
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
  /** Numbers read as `NumberValue` (exact text), never as doubles (./document-client). */
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
