import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  type DynamoDBClient,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import type { KeyAttribute } from '../core/collection';
import { sleep } from './retry';

/** A table and the one sharded index shardline needs on it. */
export interface TableSpec {
  readonly table: string;
  readonly primaryKey: readonly KeyAttribute[];
  readonly index: string;
  readonly shardKeyAttribute: string;
  readonly indexKeyAttribute: string;
}

/**
 * Creates the table and its GSI when they are missing (on-demand billing,
 * projection ALL so listings need no second read), and waits until both are
 * ACTIVE. An existing table without the index is an error, never altered.
 */
export async function ensureTable(client: DynamoDBClient, spec: TableSpec, create: boolean): Promise<void> {
  let description = await describe(client, spec.table);
  if (!description) {
    if (!create) throw new Error(`table "${spec.table}" does not exist (and SHARDLINE_CREATE_TABLE is off)`);
    await createTable(client, spec);
  }
  for (let waited = 0; ; waited += 250) {
    description = await describe(client, spec.table);
    const index = description?.GlobalSecondaryIndexes?.find((gsi) => gsi.IndexName === spec.index);
    if (description?.TableStatus === 'ACTIVE' && !index) {
      throw new Error(`table "${spec.table}" has no global secondary index "${spec.index}"`);
    }
    if (description?.TableStatus === 'ACTIVE' && (index?.IndexStatus ?? 'ACTIVE') === 'ACTIVE') return;
    if (waited > 120_000) throw new Error(`table "${spec.table}" did not become ACTIVE within two minutes`);
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

async function createTable(client: DynamoDBClient, spec: TableSpec): Promise<void> {
  const attributes = new Map<string, 'S' | 'N'>(spec.primaryKey.map((key) => [key.name, key.type]));
  attributes.set(spec.shardKeyAttribute, 'S');
  attributes.set(spec.indexKeyAttribute, 'S');
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
        GlobalSecondaryIndexes: [
          {
            IndexName: spec.index,
            KeySchema: [
              { AttributeName: spec.shardKeyAttribute, KeyType: 'HASH' },
              { AttributeName: spec.indexKeyAttribute, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
  } catch (error) {
    // Another instance created it first: fine, the wait loop takes over.
    if ((error as Error).name !== 'ResourceInUseException') throw error;
  }
}
