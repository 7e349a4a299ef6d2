import type { JsonObject } from '../core/item';
import { placeholdersJson, recordToDynamoJson } from './attribute-json';
import { ExpressionBuilder } from './conditions';
import { recordFromDynamoJson, type AttributeJson } from './dynamo-json';
import type { LeanClient } from './consumed-capacity';
import type { WriteGuard, WriteOutcome } from './store';
import { isConditionFailed } from './dynamo-errors';

/**
 * Single-item writes under a guard that DynamoDB itself checks (a ConditionExpression in the
 * write). Nothing here reads first and decides; a refused write is read, to tell why (404, 409, 412).
 */

function guardExpression(guard: WriteGuard, builder: ExpressionBuilder): string {
  // Placeholders only for what the expression uses: DynamoDB refuses unused ones.
  const absent = () => `attribute_not_exists(${builder.name(guard.keyAttributes[0] ?? '')})`;
  const ours = () => {
    const prefix = builder.value(guard.owner.prefix);
    return guard.owner.attributes.map((attribute) => `begins_with(${builder.name(attribute)}, ${prefix})`).join(' OR ');
  };
  const unowned = () =>
    guard.owner.attributes.map((attribute) => `attribute_not_exists(${builder.name(attribute)})`).join(' AND ');
  let presence: string;
  if (guard.presence === 'mustNot') presence = absent();
  else if (guard.presence === 'must') presence = ours();
  else presence = [absent(), ours(), ...(guard.adoptUnowned ? [`(${unowned()})`] : [])].join(' OR ');
  if (!guard.etag) return presence;
  const etag = builder.name(guard.etag.attribute);
  const matches =
    guard.etag.oneOf === 'absent'
      ? `attribute_not_exists(${etag})`
      : `${etag} IN (${guard.etag.oneOf.map((value) => builder.value(value)).join(', ')})`;
  return `(${presence}) AND ${matches}`;
}

const WHAT = { PutItem: 'a write', UpdateItem: 'an update', DeleteItem: 'a delete' } as const;

/**
 * Sends one write of the item at `key` under `guard`; `body` gives the request's own part (its placeholders come
 * before the guard's). When DynamoDB refuses it, reads the item (strongly consistent) so the caller can say why.
 */
export async function guardedWrite(
  { calls, send }: LeanClient,
  operation: keyof typeof WHAT,
  table: string,
  key: JsonObject,
  guard: WriteGuard,
  body: (builder: ExpressionBuilder) => object,
): Promise<WriteOutcome> {
  const builder = new ExpressionBuilder();
  const input = {
    TableName: table,
    ...body(builder),
    ConditionExpression: guardExpression(guard, builder),
    ...placeholdersJson(builder.placeholders()),
  };
  try {
    await send(WHAT[operation], (signal) => calls.send(operation, input, signal));
    return { applied: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  const get = { TableName: table, Key: recordToDynamoJson(key), ConsistentRead: true };
  const { Item: item } = await send('a read', (signal) => calls.send('GetItem', get, signal));
  return { applied: false, current: item ? recordFromDynamoJson(item as Record<string, AttributeJson>) : undefined };
}
