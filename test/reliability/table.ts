import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createDynamoClients } from '../../src/store/client';
import type { EngineEndpoints } from '../support/global-setup';

export type Row = Record<string, unknown>;

/** Every item of a table, read from the engine directly (not through the proxy or shardline). */
export async function scanTable(engine: keyof EngineEndpoints, table: string): Promise<Row[]> {
  const { doc, raw } = createDynamoClients({
    endpoint: inject('engines')[engine],
    credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' },
  });
  const rows: Row[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ...(start && { ExclusiveStartKey: start }) }),
    );
    rows.push(...((page.Items ?? []) as Row[]));
    start = page.LastEvaluatedKey;
  } while (start);
  raw.destroy();
  return rows;
}
