import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { internalError } from '../core/errors';
import { ExactNumber } from '../core/exact-number';
import type { JsonObject } from '../core/item';
import { emptyRecord, ValueSet } from '../core/values';
import type { AttributeJson } from './dynamo-json';

/**
 * Attribute values in DynamoDB's wire JSON for the lean path (./dynamo-sender), in one walk: the exact
 * document client's marshaller's result (test/unit/values/attribute-json.test.ts holds them side by side).
 * It takes core's values and the SDK's forms the expression builder holds alike. Maps have no prototype,
 * so an attribute named `__proto__` stays an attribute.
 */
export function recordToDynamoJson(record: Readonly<Record<string, unknown>>): Record<string, AttributeJson> {
  const out = emptyRecord() as Record<string, AttributeJson>;
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (value !== undefined && typeof value !== 'function') out[name] = attributeJson(value);
  }
  return out;
}

export function attributeJson(value: unknown): AttributeJson {
  if (typeof value === 'string') return { S: value };
  if (value instanceof ExactNumber) return { N: value.text };
  if (typeof value === 'boolean') return { BOOL: value };
  if (value === null) return { NULL: true };
  if (typeof value === 'number') return { N: numberText(value) };
  if (typeof value === 'bigint' || value instanceof NumberValue) return { N: value.toString() };
  if (value instanceof Uint8Array) return { B: base64(value) };
  if (Array.isArray(value)) {
    return { L: value.filter((element) => element !== undefined && typeof element !== 'function').map(attributeJson) };
  }
  if (value instanceof ValueSet) return setJson(value.kind === 'S' ? new Set(value.elements) : value.elements);
  if (value instanceof Set) return setJson([...value].filter((element) => element !== undefined));
  if (value instanceof Map) return { M: recordToDynamoJson(Object.fromEntries(value)) };
  if (typeof value === 'object') return { M: recordToDynamoJson(value as JsonObject) };
  // Items are checked before they are sent (core/item.ts): a value of no DynamoDB type here is a bug.
  throw internalError(`Unsupported type passed: ${String(value)}.`);
}

/** A set's type is its first element's, as the SDK's marshaller decides it; it refuses an empty one. */
function setJson(elements: Iterable<unknown>): AttributeJson {
  const all = [...elements];
  const first = all[0];
  if (first === undefined) throw internalError('Pass a non-empty set, or options.convertEmptyValues=true.');
  if (typeof first === 'string') return { SS: all.map(String) };
  if (first instanceof Uint8Array) return { BS: all.map((element) => base64(element as Uint8Array)) };
  if (
    first instanceof ExactNumber ||
    first instanceof NumberValue ||
    typeof first === 'number' ||
    typeof first === 'bigint'
  ) {
    return { NS: all.map((element) => (attributeJson(element) as { N: string }).N) };
  }
  throw internalError('Only Number Set (NS), Binary Set (BS) or String Set (SS) are allowed.');
}

/** A double as the exact client takes it: only those that are exactly integers it can hold, or fractions. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw internalError(`Special numeric value ${value} is not allowed`);
  if (value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER) {
    throw internalError(
      `Number ${value} is outside the safe integer range. Use NumberValue from @aws-sdk/lib-dynamodb.`,
    );
  }
  return String(value);
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** An expression builder's placeholders (`builder.placeholders()`) with their values in wire form. */
export function placeholdersJson(placeholders: {
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}) {
  const { ExpressionAttributeValues: values, ...names } = placeholders;
  return { ...names, ...(values && { ExpressionAttributeValues: recordToDynamoJson(values) }) };
}
