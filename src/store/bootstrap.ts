import {
  UpdateTimeToLiveCommand,
  DescribeTimeToLiveCommand,
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import type { IndexSpec, KeyAttribute } from '../core/collection';
import { TTL_ATTRIBUTE } from './load-store';
import { sleep } from './retry';

/** A table and the two sparse indexes shardline's shard maps take turns in. */
export interface TableSpec {
  readonly table: string;
  readonly primaryKey: readonly KeyAttribute[];
  /** The first ([0]) holds a new table's first shard map: it must exist. */
  readonly indexes: readonly [IndexSpec, IndexSpec];
}

/** How long table and index creation may take before bootstrap gives up. */
const ACTIVE_WITHIN_MS = 120_000;

/**
 * Creates the table with both indexes when it is missing (on-demand billing,
 * projection ALL so listings need no second read, a stream of new and old images
 * for the change followers unless `stream` is false; engines without Streams ignore
 * it), and waits until the table and its
 * indexes are ACTIVE. An existing table must have the first index; the second is
 * added by the first reshard that needs it (`addIndex`), never at start.
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
    if (!create) throw new Error(`table "${spec.table}" does not exist (and SHARDLINE_CREATE_TABLE is off)`);
    await createTable(client, spec, stream);
    await waitUntilActive(client, spec, spec.indexes[0].name);
    if (ttl) await expireLoadRecords(client, spec.table);
  }
  await waitUntilActive(client, spec, spec.indexes[0].name);
}

/**
 * DynamoDB TTL on the attribute shardline's load records carry (src/store/load-store.ts),
 * for a table shardline created: they then go away after SHARDLINE_LOAD_TTL_H. An engine
 * without the TimeToLive API (dynalite) keeps them; a table has one TTL attribute, so a
 * table made elsewhere is left as its owner set it (docs/autopilot.md).
 */
export async function expireLoadRecords(client: DynamoDBClient, table: string): Promise<void> {
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'UnknownOperationException') return;
    // Two routers started at once on a missing table both get here; the second finds TTL on already.
    if ((error as Error).name === 'ValidationException' && (await expiresLoadRecords(client, table))) return;
    throw error;
  }
}

async function expiresLoadRecords(client: DynamoDBClient, table: string): Promise<boolean> {
  const { TimeToLiveDescription: ttl } = await client.send(new DescribeTimeToLiveCommand({ TableName: table }));
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
 * Adds one of the spec's indexes to an existing table (UpdateTable) and waits until
 * DynamoDB has built it. Engines that accept the call without building the index
 * (dynalite) are reported, not waited for forever.
 */
export async function addIndex(
  client: DynamoDBClient,
  spec: TableSpec,
  index: IndexSpec,
  onWait: (message: string) => void = () => {},
): Promise<void> {
  const definition = indexDefinition(index);
  const update = (withThroughput: boolean) =>
    client.send(
      new UpdateTableCommand({
        TableName: spec.table,
        AttributeDefinitions: [
          { AttributeName: index.shardKeyAttribute, AttributeType: 'S' },
          { AttributeName: index.indexKeyAttribute, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [
          {
            Create: withThroughput
              ? { ...definition, ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 } }
              : definition,
          },
        ],
      }),
    );
  try {
    await update(false);
  } catch (error) {
    // Tables with provisioned capacity (and dynalite, which always asks) need a throughput for the index.
    if (!/provisionedThroughput/i.test((error as Error).message)) throw error;
    await update(true);
  }
  onWait(`adding index ${index.name} to table ${spec.table}; waiting until DynamoDB has built it`);
  if (!(await hasIndex(client, spec.table, index.name))) {
    throw new Error(
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
      throw new Error(`table "${spec.table}" has no global secondary index "${required}"`);
    }
    const ready = indexes.every((gsi) => (gsi.IndexStatus ?? 'ACTIVE') === 'ACTIVE' && gsi.Backfilling !== true);
    if (description?.TableStatus === 'ACTIVE' && ready) return;
    if (waited > ACTIVE_WITHIN_MS) throw new Error(`table "${spec.table}" did not become ACTIVE within two minutes`);
    await sleep(250);
  }
}

async function describe(client: DynamoDBClient, table: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: table }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException || (error as Error).name === 'ResourceNotFoundException')
      return undefined;
    throw error;
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
  for (const index of spec.indexes) {
    attributes.set(index.shardKeyAttribute, 'S');
    attributes.set(index.indexKeyAttribute, 'S');
  }
  try {
    await client.send(
      new CreateTableCommand({
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
      }),
    );
  } catch (error) {
    // Another instance created it first: fine, the wait loop takes over.
    if ((error as Error).name !== 'ResourceInUseException') throw error;
  }
}
