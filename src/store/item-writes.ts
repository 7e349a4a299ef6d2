import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { JsonObject } from '../core/item';
import { ExpressionBuilder } from './conditions';
import type { Send } from './retry';
import type { ItemUpdate, WriteGuard, WriteOutcome } from './store';
import { recordFromSdk, recordToSdk } from './values';

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

/** The exact document client, and how one request sends through it (retried, within the in-flight limit). */
export interface ItemClient {
  readonly doc: DynamoDBDocumentClient;
  readonly send: Send;
}

export function guardedPut(client: ItemClient, table: string, record: JsonObject, guard: WriteGuard) {
  const builder = new ExpressionBuilder();
  const command = new PutCommand({
    TableName: table,
    Item: recordToSdk(record),
    ConditionExpression: guardExpression(guard, builder),
    ...builder.placeholders(),
  });
  return explainRefusal(client, table, keyOf(record, guard), 'a write', (abortSignal) =>
    client.doc.send(command, { abortSignal }),
  );
}

export function guardedUpdate(client: ItemClient, update: ItemUpdate) {
  const builder = new ExpressionBuilder();
  const command = new UpdateCommand({
    TableName: update.table,
    Key: recordToSdk(update.key),
    UpdateExpression: builder.update(update.set, update.remove),
    ConditionExpression: guardExpression(update.guard, builder),
    ...builder.placeholders(),
  });
  return explainRefusal(client, update.table, update.key, 'an update', (abortSignal) =>
    client.doc.send(command, { abortSignal }),
  );
}

export function guardedDelete(client: ItemClient, table: string, key: JsonObject, guard: WriteGuard) {
  const builder = new ExpressionBuilder();
  const command = new DeleteCommand({
    TableName: table,
    Key: recordToSdk(key),
    ConditionExpression: guardExpression(guard, builder),
    ...builder.placeholders(),
  });
  return explainRefusal(client, table, key, 'a delete', (abortSignal) => client.doc.send(command, { abortSignal }));
}

/** Sends a guarded write; when DynamoDB refuses it, reads the item (strongly consistent) so the caller can say why. */
async function explainRefusal(
  { doc, send }: ItemClient,
  table: string,
  key: JsonObject,
  what: string,
  write: (signal: AbortSignal | undefined) => Promise<unknown>,
): Promise<WriteOutcome> {
  try {
    await send(what, write);
    return { applied: true };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
  const get = new GetCommand({ TableName: table, Key: recordToSdk(key), ConsistentRead: true });
  const response = await send('a read', (abortSignal) => doc.send(get, { abortSignal }));
  return { applied: false, current: response.Item && recordFromSdk(response.Item) };
}

function keyOf(record: JsonObject, guard: WriteGuard): JsonObject {
  return Object.fromEntries(guard.keyAttributes.map((name) => [name, record[name]]));
}
