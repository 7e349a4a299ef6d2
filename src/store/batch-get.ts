import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JsonObject } from '../core/item';
import { ExpressionBuilder } from './conditions';
import { backoffDelay, sleep, unavailable, type CallContext, type RetryPolicy } from './retry';
import type { ReadOptions } from './store';
import { recordFromSdk, recordToSdk } from './values';

type Send = <T>(what: string, run: (signal: AbortSignal | undefined) => Promise<T>) => Promise<T>;

/**
 * The items of up to 100 keys in one BatchGetItem, then again for the keys DynamoDB hands
 * back unprocessed (throttled or over 16 MB), with backoff, until every key is answered:
 * an item not returned once no key is left unprocessed does not exist. A run of answers
 * that process nothing gives up (`unavailable`), like any call out of retries.
 */
export async function batchGetItems(
  doc: DynamoDBDocumentClient,
  send: Send,
  table: string,
  keys: readonly JsonObject[],
  context: CallContext,
  policy: RetryPolicy,
  options: ReadOptions = {},
): Promise<JsonObject[]> {
  const found: JsonObject[] = [];
  if (keys.length === 0) return found;
  const builder = new ExpressionBuilder();
  const projection = options.attributes?.map((attribute) => builder.name(attribute)).join(', ');
  let pending: Record<string, unknown>[] = keys.map(recordToSdk);
  for (let fruitless = 0; pending.length > 0; ) {
    const response = await send('a batch read', (abortSignal) =>
      doc.send(
        new BatchGetCommand({
          RequestItems: {
            [table]: {
              Keys: pending,
              ...(options.consistent && { ConsistentRead: true }),
              ...(projection && { ProjectionExpression: projection, ExpressionAttributeNames: builder.names }),
            },
          },
        }),
        { abortSignal },
      ),
    );
    const items = response.Responses?.[table] ?? [];
    for (const item of items) found.push(recordFromSdk(item));
    const left = response.UnprocessedKeys?.[table]?.Keys ?? [];
    fruitless = items.length > 0 || left.length < pending.length ? 0 : fruitless + 1;
    pending = left;
    if (pending.length === 0) break;
    if (fruitless >= policy.maxAttempts) {
      throw unavailable('a batch read', Object.assign(new Error('unprocessed keys'), { name: 'ThrottlingException' }));
    }
    await sleep(backoffDelay(fruitless, policy), context.signal);
  }
  return found;
}
