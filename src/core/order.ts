import type { CollectionSpec } from './collection';
import { ShardlineError } from './errors';
import type { JsonObject } from './item';
import type { Normalization } from './normalize';
import { decodeField, encodeField, encodeSafeInteger, type OrderDirection, type OrderType } from './order-encoding';
import { presentTyped, readTyped } from './order-values';

/**
 * What a collection is ordered by: one field or several, each typed and directed. The ordered
 * value every other layer sees is a string: for one ascending string field the normalized value
 * itself, as it always was; otherwise the tuple's order-preserving encoding (order-encoding.ts).
 */
export interface OrderField {
  readonly field: string;
  readonly type: OrderType;
  readonly direction: OrderDirection;
  /** Ignored for types other than string. */
  readonly normalization: Normalization;
}

export type CollectionOrder = readonly OrderField[];
type FieldValues = (string | number)[];

/** Collections without an order are ordered by their one string `field`. */
export function orderOf(collection: Pick<CollectionSpec, 'field' | 'normalization' | 'order'>): CollectionOrder {
  return (
    collection.order ?? [
      { field: collection.field, type: 'string', direction: 'asc', normalization: collection.normalization },
    ]
  );
}

/** Whether the ordered value is an encoded tuple rather than the normalized string itself. */
export function isTypedOrder(order: CollectionOrder): boolean {
  const [first] = order;
  return order.length !== 1 || first?.type !== 'string' || first.direction !== 'asc';
}

/** Throws a 400 `ShardlineError` naming the first field that is missing or not a value of its type. */
export function orderedValueOf(collection: CollectionSpec, item: JsonObject): string {
  const order = orderOf(collection);
  // Field by field rather than through encodeOrderPrefix: this runs on every write and route.
  const typed = isTypedOrder(order);
  let encoded = '';
  for (const field of order) {
    const input = item[field.field];
    if (input === undefined || input === null) refuseItem(field.field, 'is missing');
    if (typed && field.type === 'number' && typeof input === 'number' && Number.isSafeInteger(input)) {
      encoded += encodeSafeInteger(input, field.direction);
      continue;
    }
    const read = readTyped(field.type, field.normalization, input, false);
    if ('problem' in read) refuseItem(field.field, read.problem);
    encoded += typed ? encodeField(field.type, field.direction, read.value) : (read.value as string);
  }
  return encoded;
}

function refuseItem(field: string, problem: string): never {
  throw new ShardlineError('invalid_item', `field "${field}" ${problem}`);
}

/**
 * The encoding of the first `values.length` fields of `order`: every tuple that starts with these
 * values encodes to a string that starts with it. `textAllowed`: numbers may be decimal text
 * (query parameters, config files).
 */
export function encodeOrderPrefix(
  order: CollectionOrder,
  values: readonly unknown[],
  textAllowed: boolean,
  refuse: (field: string, problem: string) => never,
): string {
  const typed = isTypedOrder(order);
  let encoded = '';
  for (const [i, input] of values.entries()) {
    const field = order[i];
    if (!field) refuse(order.map((f) => f.field).join(', '), `has only ${order.length} field(s)`);
    if (input === undefined || input === null) refuse(field.field, 'is missing');
    const read = readTyped(field.type, field.normalization, input, textAllowed);
    if ('problem' in read) refuse(field.field, read.problem);
    encoded += typed ? encodeField(field.type, field.direction, read.value) : (read.value as string);
  }
  return encoded;
}

/** The field values of an ordered value or a tuple prefix (see `presentTyped`); throws an Error if none. */
export function decodeOrderedValue(order: CollectionOrder, encoded: string): FieldValues {
  if (!isTypedOrder(order)) return [encoded];
  const values: FieldValues = [];
  let at = 0;
  for (const field of order) {
    if (at === encoded.length) break;
    const { value, end } = decodeField(field.type, field.direction, encoded, at);
    values.push(presentTyped(field.type, value));
    at = end;
  }
  if (at !== encoded.length) throw new Error('not an ordered value: text after its last field');
  return values;
}

/**
 * A typed order's value as field values (`[]` for the first boundary, `[2020]` for a cut after
 * one field). Undefined for a plain string order, readable as it is, and for no ordered value.
 */
export function readableValues(order: CollectionOrder, encoded: string): FieldValues | undefined {
  if (!isTypedOrder(order)) return undefined;
  try {
    return decodeOrderedValue(order, encoded);
  } catch {
    return undefined;
  }
}

/** A typed order's boundaries as field values; undefined for string orders, or if one boundary reads as none. */
export function readableBoundaries(order: CollectionOrder, boundaries: readonly string[]): FieldValues[] | undefined {
  const values = boundaries.map((boundary) => readableValues(order, boundary));
  return values.every((value) => value !== undefined) ? (values as FieldValues[]) : undefined;
}

/** `field "title" is` or `fields "year", "title" are`, for messages about the ordered value. */
export function orderLabel(collection: CollectionSpec): string {
  const names = orderOf(collection).map((field) => JSON.stringify(field.field));
  return names.length === 1 ? `field ${names[0]} is` : `fields ${names.join(', ')} are`;
}

/**
 * A cut between two values, a prefix of `next`, rounded up to field boundaries, so that it
 * decodes to a tuple and still separates the same values (`cut <= result <= next`).
 */
export function roundToFields(order: CollectionOrder, cut: string, next: string): string {
  if (!isTypedOrder(order) || cut.length === 0) return cut;
  let at = 0;
  for (const field of order) {
    at = decodeField(field.type, field.direction, next, at).end;
    if (at >= cut.length) return next.slice(0, at);
  }
  return next;
}
