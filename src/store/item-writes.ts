import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { JsonObject } from '../core/item';
import { ExpressionBuilder } from './conditions';
import type { ItemUpdate, WriteGuard, WriteOutcome } from './store';
import { recordFromSdk, recordToSdk } from './values';

/**
 * Single-item writes under a guard that DynamoDB itself checks (a ConditionExpression in
 * the write): ownership, presence and the ETag. Nothing here reads first and decides; a
 * read happens only after a refused write, to tell the caller why (404, 409 or 412).
 */

/** The ConditionExpression of a guard, with its placeholders in `builder`. */
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

type Send = <T>(what: string, run: (signal: AbortSignal | undefined) => Promise<T>) => Promise<T>;

export async function guardedPut(
  doc: DynamoDBDocumentClient,
  send: Send,
  table: string,
  record: JsonObject,
  guard: WriteGuard,
): Promise<WriteOutcome> {
  const builder = new ExpressionBuilder();
  const condition = guardExpression(guard, builder);
  const command = new PutCommand({
    TableName: table,
    Item: recordToSdk(record),
    ConditionExpression: condition,
    ...builder.placeholders(),
  });
  return explainRefusal(doc, send, table, keyOf(record, guard), () =>
    send('a write', (abortSignal) => doc.send(command, { abortSignal })),
  );
}

export async function guardedUpdate(
  doc: DynamoDBDocumentClient,
  send: Send,
  update: ItemUpdate,
): Promise<WriteOutcome> {
  const builder = new ExpressionBuilder();
  const updateExpression = builder.update(update.set, update.remove);
  const command = new UpdateCommand({
    TableName: update.table,
    Key: recordToSdk(update.key),
    UpdateExpression: updateExpression,
    ConditionExpression: guardExpression(update.guard, builder),
    ...builder.placeholders(),
  });
  return explainRefusal(doc, send, update.table, update.key, () =>
    send('an update', (abortSignal) => doc.send(command, { abortSignal })),
  );
}

export async function guardedDelete(
  doc: DynamoDBDocumentClient,
  send: Send,
  table: string,
  key: JsonObject,
  guard: WriteGuard,
): Promise<WriteOutcome> {
  const builder = new ExpressionBuilder();
  const condition = guardExpression(guard, builder);
  const command = new DeleteCommand({
    TableName: table,
    Key: recordToSdk(key),
    ConditionExpression: condition,
    ...builder.placeholders(),
  });
  return explainRefusal(doc, send, table, key, () =>
    send('a delete', (abortSignal) => doc.send(command, { abortSignal })),
  );
}

/**
 * Runs a guarded write; when DynamoDB refuses it, reads the item (strongly consistent) so
 * the caller can say why. The read explains a refusal, it never decides a write.
 */
async function explainRefusal(
  doc: DynamoDBDocumentClient,
  send: Send,
  table: string,
  key: JsonObject,
  write: () => Promise<unknown>,
): Promise<WriteOutcome> {
  try {
    await write();
    return { applied: true };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
  const response = await send('a read', (abortSignal) =>
    doc.send(new GetCommand({ TableName: table, Key: recordToSdk(key), ConsistentRead: true }), { abortSignal }),
  );
  return { applied: false, current: response.Item && recordFromSdk(response.Item) };
}

function keyOf(record: JsonObject, guard: WriteGuard): JsonObject {
  return Object.fromEntries(guard.keyAttributes.map((name) => [name, record[name]]));
}
