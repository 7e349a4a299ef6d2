import type { JsonObject } from '../core/item';
import { placeholdersJson } from './attribute-json';
import type { LeanClient } from './consumed-capacity';
import { recordFromDynamoJson, type AttributeJson } from './dynamo-json';

/** The items of one partition whose sort key lies between two values (inclusive), in sort key order. */
export interface KeyRange {
  readonly table: string;
  readonly partition: readonly [name: string, value: unknown];
  readonly sort: readonly [name: string, lower: string, upper: string];
  readonly consistent?: boolean;
}

/** A Query's answer as DynamoDB sends it: items in its wire JSON, not yet converted. */
export interface QueryAnswer {
  readonly Items?: Readonly<Record<string, AttributeJson>>[];
  readonly LastEvaluatedKey?: Readonly<Record<string, AttributeJson>>;
  readonly ConsumedCapacity?: { readonly CapacityUnits?: number };
}

/** Every page of one Query of the table (not an index) over `range`: one call when it holds under 1 MB. */
export async function queryKeyRange({ calls, send }: LeanClient, range: KeyRange): Promise<JsonObject[]> {
  const [partitionName, partitionValue] = range.partition;
  const [sortName, lower, upper] = range.sort;
  const base = {
    TableName: range.table,
    KeyConditionExpression: '#p = :p AND #s BETWEEN :lower AND :upper',
    ...placeholdersJson({
      ExpressionAttributeNames: { '#p': partitionName, '#s': sortName },
      ExpressionAttributeValues: { ':p': partitionValue, ':lower': lower, ':upper': upper },
    }),
    ...(range.consistent && { ConsistentRead: true }),
  };
  const items: JsonObject[] = [];
  let after: Readonly<Record<string, AttributeJson>> | undefined;
  do {
    const input = after ? { ...base, ExclusiveStartKey: after } : base;
    const answer = (await send('a query of an entity', (signal) => calls.send('Query', input, signal))) as QueryAnswer;
    items.push(...(answer.Items ?? []).map(recordFromDynamoJson));
    after = answer.LastEvaluatedKey;
  } while (after);
  return items;
}
