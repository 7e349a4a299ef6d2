import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The one place a test talks to DynamoDB without shardline: items written straight to
 * the table, as another application (a backfill job, the AWS console) would.
 */
export async function putBehindTheBack(endpoint: string, table: string, items: readonly object[]): Promise<void> {
  const raw = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' },
  });
  const doc = DynamoDBDocumentClient.from(raw);
  try {
    for (const item of items) await doc.send(new PutCommand({ TableName: table, Item: { ...item } }));
  } finally {
    raw.destroy();
  }
}
