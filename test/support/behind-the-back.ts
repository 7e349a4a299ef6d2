import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The one place a test talks to DynamoDB without shardline: items written straight to
 * the table, as another application (a backfill job, the AWS console) would.
 */
export async function putBehindTheBack(endpoint: string, table: string, items: readonly object[]): Promise<void> {
  const raw = client(endpoint);
  const doc = DynamoDBDocumentClient.from(raw);
  try {
    for (const item of items) await doc.send(new PutCommand({ TableName: table, Item: { ...item } }));
  } finally {
    raw.destroy();
  }
}

/** Sets one attribute of existing items straight in the table (e.g. renames them), leaving the rest as it is. */
export async function setBehindTheBack(
  endpoint: string,
  table: string,
  changes: readonly { key: object; attribute: string; value: unknown }[],
): Promise<void> {
  const raw = client(endpoint);
  const doc = DynamoDBDocumentClient.from(raw);
  try {
    for (const { key, attribute, value } of changes) {
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: { ...key },
          UpdateExpression: 'SET #a = :v',
          ExpressionAttributeNames: { '#a': attribute },
          ExpressionAttributeValues: { ':v': value },
        }),
      );
    }
  } finally {
    raw.destroy();
  }
}

/** Deletes items straight from the table. */
export async function deleteBehindTheBack(endpoint: string, table: string, keys: readonly object[]): Promise<void> {
  const raw = client(endpoint);
  const doc = DynamoDBDocumentClient.from(raw);
  try {
    for (const key of keys) await doc.send(new DeleteCommand({ TableName: table, Key: { ...key } }));
  } finally {
    raw.destroy();
  }
}

/** A table as shardline made them before shard maps took turns in two indexes: `GSI1` only. */
export async function createSingleIndexTable(endpoint: string, table: string): Promise<void> {
  const raw = client(endpoint);
  const string = (name: string) => ({ AttributeName: name, AttributeType: 'S' as const });
  try {
    await raw.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map(string),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'GSI1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
  } finally {
    raw.destroy();
  }
}

/** Deletes the whole table, as an engine restarted empty (or an operator's mistake) would leave it. */
export async function dropTableBehindTheBack(endpoint: string, table: string): Promise<void> {
  const raw = client(endpoint);
  try {
    await raw.send(new DeleteTableCommand({ TableName: table }));
  } finally {
    raw.destroy();
  }
}

function client(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' },
  });
}
