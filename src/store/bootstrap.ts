import {
  UpdateTimeToLiveCommand,
  DescribeTimeToLiveCommand,
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { type CollectionSpec, type IndexSpec, TTL_ATTRIBUTE } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { isDynamoError } from './dynamo-errors';
import { sendRetried, sleep } from './retry';

/** A table and the two sparse indexes shardline's shard maps take turns in (the first must exist). */
export type TableSpec = Pick<CollectionSpec, 'table' | 'primaryKey' | 'indexes'>;

const ACTIVE_WITHIN_MS = 120_000;

/**
 * Creates the table with both indexes when it is missing (projection ALL, so listings need no
 * second read; a stream for the change followers unless `stream` is false, which engines without
 * Streams ignore) and waits until all is ACTIVE. An existing table must have the first index; the
 * second is added by the first reshard that needs it (`addIndex`), never at start.
 */
export async function ensureTable(
  client: DynamoDBClient,
  spec: TableSpec,
  create: boolean,
  stream = true,
  /** Enable DynamoDB TTL for the load records, where this router writes them. */
  ttl = false,
): Promise<void> {
  const description = await describe(client, spec.table);
  if (!description) {
    if (!create) throw missing(spec, 'does not exist (and SHARDLINE_CREATE_TABLE is off)');
    await createTable(client, spec, stream);
    await waitUntilActive(client, spec, spec.indexes[0].name);
    if (ttl) await expireLoadRecords(client, spec.table);
  }
  await waitUntilActive(client, spec, spec.indexes[0].name);
}

/**
 * DynamoDB TTL on the load records' attribute, for a table shardline created (a table has one TTL
 * attribute: one made elsewhere is left as its owner set it). dynalite, without the API, keeps them.
 */
export async function expireLoadRecords(client: DynamoDBClient, table: string): Promise<void> {
  const update = new UpdateTimeToLiveCommand({
    TableName: table,
    TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
  });
  try {
    await sendRetried(client, update, `an update of table ${table}'s TTL`, { operation: 'update_table', table });
  } catch (error) {
    if (isDynamoError(error, 'UnknownOperationException')) return;
    // Two routers started at once on a missing table both get here; the second finds TTL on already.
    if (isDynamoError(error, 'ValidationException') && (await expiresLoadRecords(client, table))) return;
    throw error;
  }
}

async function expiresLoadRecords(client: DynamoDBClient, table: string): Promise<boolean> {
  const describeTtl = new DescribeTimeToLiveCommand({ TableName: table });
  const what = `a description of table ${table}'s TTL`;
  const { TimeToLiveDescription: ttl } = await sendRetried(client, describeTtl, what, { operation: 'describe', table });
  return (
    ttl?.AttributeName === TTL_ATTRIBUTE && (ttl.TimeToLiveStatus === 'ENABLED' || ttl.TimeToLiveStatus === 'ENABLING')
  );
}

/** Whether the table has this index (of any status). */
export async function hasIndex(client: DynamoDBClient, table: string, index: string): Promise<boolean> {
  const description = await describe(client, table);
  return description?.GlobalSecondaryIndexes?.some((gsi) => gsi.IndexName === index) ?? false;
}

/**
 * Adds an index to an existing table and waits until DynamoDB has built it. Engines that accept
 * the call without building the index (dynalite) are reported, not waited for forever.
 */
export async function addIndex(
  client: DynamoDBClient,
  spec: TableSpec,
  index: IndexSpec,
  onWait: (message: string) => void = () => {},
): Promise<void> {
  const definition = indexDefinition(index);
  const update = (withThroughput: boolean) => {
    const throughput = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
    const command = new UpdateTableCommand({
      TableName: spec.table,
      AttributeDefinitions: [
        { AttributeName: index.shardKeyAttribute, AttributeType: 'S' },
        { AttributeName: index.indexKeyAttribute, AttributeType: 'S' },
      ],
      GlobalSecondaryIndexUpdates: [
        { Create: withThroughput ? { ...definition, ProvisionedThroughput: throughput } : definition },
      ],
    });
    const label = { operation: 'update_table', table: spec.table } as const;
    return sendRetried(client, command, `an update of table ${spec.table} (index ${index.name})`, label);
  };
  try {
    await update(false);
  } catch (error) {
    // Tables with provisioned capacity (and dynalite, which always asks) need a throughput for the index.
    if (/provisionedThroughput/i.test((error as Error).message)) await update(true);
    // A retry whose first attempt landed unanswered is refused: the index is there, being built.
    else if (!(await hasIndex(client, spec.table, index.name))) throw error;
  }
  onWait(`adding index ${index.name} to table ${spec.table}; waiting until DynamoDB has built it`);
  if (!(await hasIndex(client, spec.table, index.name))) {
    throw new ShardlineError(
      'unavailable',
      `the engine accepted the new index ${index.name} on table ${spec.table} but did not create it ` +
        '(dynalite cannot add an index to an existing table): create the table anew with both indexes',
    );
  }
  await waitUntilActive(client, spec, index.name);
}

async function waitUntilActive(client: DynamoDBClient, spec: TableSpec, required: string): Promise<void> {
  for (let waited = 0; ; waited += 250) {
    const description = await describe(client, spec.table);
    const indexes = description?.GlobalSecondaryIndexes ?? [];
    if (description?.TableStatus === 'ACTIVE' && !indexes.some((gsi) => gsi.IndexName === required)) {
      throw new ShardlineError('unavailable', `table "${spec.table}" has no global secondary index "${required}"`);
    }
    const ready = indexes.every((gsi) => (gsi.IndexStatus ?? 'ACTIVE') === 'ACTIVE' && gsi.Backfilling !== true);
    if (description?.TableStatus === 'ACTIVE' && ready) return;
    if (waited > ACTIVE_WITHIN_MS) throw missing(spec, 'did not become ACTIVE within two minutes');
    await sleep(250);
  }
}

/** A table the router cannot serve from yet: the 503 a request would get for it. */
function missing(spec: TableSpec, problem: string): ShardlineError {
  return new ShardlineError('table_missing', `table "${spec.table}" ${problem}`, { tables: [spec.table] });
}

async function describe(client: DynamoDBClient, table: string): Promise<TableDescription | undefined> {
  const command = new DescribeTableCommand({ TableName: table });
  try {
    const answer = await sendRetried(client, command, `a description of table ${table}`, {
      operation: 'describe',
      table,
    });
    return answer.Table;
  } catch (error) {
    if (!(error instanceof ShardlineError && error.code === 'table_missing')) throw error;
    return undefined;
  }
}

function indexDefinition(index: IndexSpec): GlobalSecondaryIndex {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.shardKeyAttribute, KeyType: 'HASH' },
      { AttributeName: index.indexKeyAttribute, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  };
}

async function createTable(client: DynamoDBClient, spec: TableSpec, stream: boolean): Promise<void> {
  const attributes = new Map<string, 'S' | 'N'>(spec.primaryKey.map((key) => [key.name, key.type]));
  for (const { shardKeyAttribute, indexKeyAttribute } of spec.indexes) {
    attributes.set(shardKeyAttribute, 'S').set(indexKeyAttribute, 'S');
  }
  const command = new CreateTableCommand({
    TableName: spec.table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({
      AttributeName,
      AttributeType,
    })),
    KeySchema: spec.primaryKey.map((key, i) => ({ AttributeName: key.name, KeyType: i === 0 ? 'HASH' : 'RANGE' })),
    GlobalSecondaryIndexes: spec.indexes.map(indexDefinition),
    // Other applications' writes reach the index through the stream (npm run follow, the Lambda).
    ...(stream && { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } }),
  });
  try {
    const label = { operation: 'create_table', table: spec.table } as const;
    await sendRetried(client, command, `the creation of table ${spec.table}`, label);
  } catch (error) {
    // In use: another instance created it first, or a retry's first attempt landed. The wait loop takes over.
    if (!isDynamoError(error, 'ResourceInUseException')) throw error;
  }
}
