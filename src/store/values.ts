import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { ExactNumber } from '../core/exact-number';
import type { JsonObject } from '../core/item';
import { emptyRecord, type SetElement, type SetKind, ValueSet } from '../core/values';

// Core's `ExactNumber` and `ValueSet` as the document client's `NumberValue` and `Set`, and back: core never
// sees an SDK type.

/** Maps become `Map`s: the marshaller refuses an object whose `constructor` is not Object's (an attribute). */
export function recordToSdk(record: JsonObject): JsonObject {
  const out = emptyRecord();
  for (const name of Object.keys(record)) out[name] = valueToSdk(record[name]);
  return out;
}

/** With no prototype: names are only data. */
export function recordFromSdk(record: Record<string, unknown>): JsonObject {
  const out = emptyRecord();
  for (const name of Object.keys(record)) out[name] = valueFromSdk(record[name]);
  return out;
}

export function valueToSdk(value: unknown): unknown {
  if (value instanceof ExactNumber) return new NumberValue(value.text);
  if (value instanceof ValueSet) return new Set(value.elements.map(valueToSdk));
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(valueToSdk);
  return new Map(Object.entries(value).map(([name, element]) => [name, valueToSdk(element)]));
}

export function valueFromSdk(value: unknown): unknown {
  if (value instanceof NumberValue) return new ExactNumber(value.value);
  if (value instanceof Set) return setFromSdk(value);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(valueFromSdk);
  return recordFromSdk(value as Record<string, unknown>);
}

function setFromSdk(set: Set<unknown>): ValueSet {
  const elements = [...set].map(valueFromSdk) as SetElement[];
  const first = elements[0];
  // DynamoDB has no empty sets; an empty one read back can only be a string set's absence.
  const kind: SetKind = first instanceof ExactNumber ? 'N' : first instanceof Uint8Array ? 'B' : 'S';
  return new ValueSet(kind, elements);
}
