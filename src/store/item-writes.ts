import type { JsonObject } from '../core/item';
import { placeholdersJson, recordToDynamoJson } from './attribute-json';
import { ExpressionBuilder } from './conditions';
import { recordFromDynamoJson, type AttributeJson } from './dynamo-json';
import type { CallSender } from './consumed-capacity';
import type { Send } from './retry';
import type { ItemUpdate, WriteGuard, WriteOutcome } from './store';
import { isConditionFailed } from './dynamo-errors';

/**
 * Single-item writes under a guard that DynamoDB itself checks (a ConditionExpression in the
 * write). Nothing here reads first and decides; a refused write is read, to tell why (404, 409, 412).
 */

export function guardExpression(guard: WriteGuard, builder: ExpressionBuilder): string {
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

/**
 * The lean sender (attribute values in wire JSON), and how one request sends through it (retried, within the
 * in-flight limit).
 */
export interface ItemClient {
  readonly calls: CallSender;
  readonly send: Send;
}

export function guardedPut(client: ItemClient, table: string, record: JsonObject, guard: WriteGuard) {
  const builder = new ExpressionBuilder();
  const input = {
    TableName: table,
    Item: recordToDynamoJson(record),
    ConditionExpression: guardExpression(guard, builder),
    ...placeholdersJson(builder.placeholders()),
  };
  return explainRefusal(client, table, keyOf(record, guard), 'a write', (signal) =>
    client.calls.send('PutItem', input, signal),
  );
}

export function guardedUpdate(client: ItemClient, update: ItemUpdate) {
  const builder = new ExpressionBuilder();
  const input = {
    TableName: update.table,
    Key: recordToDynamoJson(update.key),
    UpdateExpression: builder.update(update.set, update.remove),
    ConditionExpression: guardExpression(update.guard, builder),
    ...placeholdersJson(builder.placeholders()),
  };
  return explainRefusal(client, update.table, update.key, 'an update', (signal) =>
    client.calls.send('UpdateItem', input, signal),
  );
}

export function guardedDelete(client: ItemClient, table: string, key: JsonObject, guard: WriteGuard) {
  const builder = new ExpressionBuilder();
  const input = {
    TableName: table,
    Key: recordToDynamoJson(key),
    ConditionExpression: guardExpression(guard, builder),
    ...placeholdersJson(builder.placeholders()),
  };
  return explainRefusal(client, table, key, 'a delete', (signal) => client.calls.send('DeleteItem', input, signal));
}

/** Sends a guarded write; when DynamoDB refuses it, reads the item (strongly consistent) so the caller can say why. */
async function explainRefusal(
  { calls, send }: ItemClient,
  table: string,
  key: JsonObject,
  what: string,
  write: (signal: AbortSignal | undefined) => Promise<unknown>,
): Promise<WriteOutcome> {
  try {
    await send(what, write);
    return { applied: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  const get = { TableName: table, Key: recordToDynamoJson(key), ConsistentRead: true };
  const { Item: item } = await send('a read', (signal) => calls.send('GetItem', get, signal));
  return { applied: false, current: item ? recordFromDynamoJson(item as Record<string, AttributeJson>) : undefined };
}

function keyOf(record: JsonObject, guard: WriteGuard): JsonObject {
  return Object.fromEntries(guard.keyAttributes.map((name) => [name, record[name]]));
}
