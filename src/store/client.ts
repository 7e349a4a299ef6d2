import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoSender } from './dynamo-sender';
import { KeyedSha256 } from './keyed-sha256';
import { QuerySender } from './query-sender';

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
  /** For shardline's own items (shard maps): plain JS numbers are what they hold. */
  readonly doc: DynamoDBDocumentClient;
  /** For the application's items: numbers read as `NumberValue` (exact text), never as doubles. */
  readonly exact: DynamoDBDocumentClient;
  /** For the serving routes' item calls: the raw client's parts without its pipeline (see ./dynamo-sender). */
  readonly calls: DynamoSender;
  /** For listing pages' shard queries, by the same lean path (see ./query-sender). */
  readonly queries: QuerySender;
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
  // logger drops it, at a cost docs/performance.md gives. shardline never hands the SDK a logger.
  raw.middlewareStack.remove('loggerMiddleware');
  const doc = DynamoDBDocumentClient.from(raw, {
    // JSON numbers are doubles; store them as JSON prints them and read them back alike.
    marshallOptions: { removeUndefinedValues: true, allowImpreciseNumbers: true },
    unmarshallOptions: { wrapNumbers: (value: string) => Number(value) },
  });
  const exact = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
    unmarshallOptions: { wrapNumbers: true },
  });
  const calls = new DynamoSender(raw);
  return { raw, doc, exact, calls, queries: new QuerySender(calls) };
}
