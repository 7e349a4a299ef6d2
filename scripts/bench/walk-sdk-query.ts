import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { measured } from './page-sample';

/** One partition of an index, as a plain DynamoDB client would page it. */
export interface PartitionQuery {
  readonly table: string;
  readonly index: string;
  readonly partitionAttribute: string;
  readonly partition: string;
}

/** A page of the plain client: wall time and this process's CPU, as the router's pages are timed. */
export interface SdkPage {
  readonly returned: number;
  readonly ms: number;
  readonly cpuMs: number;
}

/** The AWS SDK's document client as an application would make one: its defaults, nothing removed. */
export function plainDocumentClient(endpoint: string): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
  return DynamoDBDocumentClient.from(client);
}

/**
 * The floor of a cold group's page: one DynamoDB Query of the group's one partition through the AWS
 * SDK, `Limit` = the page size, resumed from `LastEvaluatedKey`, the items written out as JSON with
 * the key to resume from. No router does less for the same page, so the router is measured against it.
 */
export async function walkSdkQuery(
  doc: DynamoDBDocumentClient,
  query: PartitionQuery,
  pageSize: number,
): Promise<SdkPage[]> {
  const pages: SdkPage[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const { value, ms, cpuMs } = await measured(async () => {
      const answer = await doc.send(
        new QueryCommand({
          TableName: query.table,
          IndexName: query.index,
          KeyConditionExpression: '#partition = :partition',
          ExpressionAttributeNames: { '#partition': query.partitionAttribute },
          ExpressionAttributeValues: { ':partition': query.partition },
          Limit: pageSize,
          ...(after && { ExclusiveStartKey: after }),
        }),
      );
      const next = answer.LastEvaluatedKey;
      const body = JSON.stringify({
        items: answer.Items ?? [],
        nextCursor: next ? Buffer.from(JSON.stringify(next)).toString('base64url') : null,
      });
      return { returned: answer.Items?.length ?? 0, next, body };
    });
    // A partition of exactly whole pages ends on an empty one (DynamoDB said "maybe more"): not a page of items.
    if (value.returned > 0) pages.push({ returned: value.returned, ms, cpuMs });
    after = value.next;
  } while (after);
  return pages;
}
