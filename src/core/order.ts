import { bisectLeftIn, type SortedView } from './collation';
import type { CollectionSpec } from './collection';
import { invalidRequest, malformedRecord, ShardlineError } from './errors';
import type { JsonObject } from './item';
import { prefixSuccessor } from './key-range';
import { normalize, type Normalization } from './normalize';
import {
  decodeField,
  encodeField,
  encodeSafeInteger,
  encodeString,
  encodeStringDescending,
  type OrderDirection,
  type OrderType,
} from './order-encoding';
import { presentTyped, readString, readTyped } from './order-values';
import type { ValueBound } from './strategies';

/**
 * The order codec (docs/architecture.md, "Typed and compound order"), the one file that tells an order's two
 * forms apart: a plain order's (one ascending string field) value is the normalized string itself; any other's
 * the encoding of its field values (order-encoding.ts), read back as them where people see it.
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
type OrderSpec = Pick<CollectionSpec, 'field' | 'normalization' | 'order'>;
type Refuse = (field: string, problem: string) => never;

/** Collections without an order are ordered by their one string `field`. */
export function orderOf(collection: OrderSpec): CollectionOrder {
  return (
    collection.order ?? [
      { field: collection.field, type: 'string', direction: 'asc', normalization: collection.normalization },
    ]
  );
}

/** What a collection's spec keeps of its order (`orderOf` reads it back). */
export function orderSpec(order: CollectionOrder): OrderSpec {
  const { field, normalization } = order[0]!;
  // An encoded value has nothing to normalize again: each string field normalizes itself.
  return isPlain(order) ? { field, normalization } : { field, normalization: 'none', order };
}

function isPlain(order: CollectionOrder): boolean {
  const [first] = order;
  return order.length === 1 && first?.type === 'string' && first.direction === 'asc';
}

/** Throws a 400 `ShardlineError` naming the first field that is missing or not a value of its type. */
export function orderedValueOf(collection: CollectionSpec, item: JsonObject): string {
  const order = orderOf(collection);
  const plain = isPlain(order);
  let encoded = '';
  // Field by field rather than through encodeOrderPrefix's values: this runs on every write and route.
  for (const field of order) encoded += encodeInput(plain, field, item[field.field], false, refuseItem);
  return encoded;
}

function refuseItem(field: string, problem: string): never {
  throw new ShardlineError('invalid_item', `field "${field}" ${problem}`);
}

/**
 * The encoding of the first `values.length` fields of `order`, which every tuple starting with these values
 * starts with. `textAllowed`: numbers may be decimal text (query parameters, config files).
 */
export function encodeOrderPrefix(
  order: CollectionOrder,
  values: readonly unknown[],
  textAllowed: boolean,
  refuse: Refuse,
) {
  const plain = isPlain(order);
  let encoded = '';
  for (const [i, input] of values.entries()) {
    const field = order[i];
    if (!field) refuse(order.map((f) => f.field).join(', '), `has only ${order.length} field(s)`);
    encoded += encodeInput(plain, field, input, textAllowed, refuse);
  }
  return encoded;
}

function encodeInput(plain: boolean, field: OrderField, input: unknown, textAllowed: boolean, refuse: Refuse) {
  if (input === undefined || input === null) refuse(field.field, 'is missing');
  // Counts, years and ids skip the decimal: their encodings are made once (encodeSafeInteger).
  if (field.type === 'number' && typeof input === 'number' && Number.isSafeInteger(input)) {
    return encodeSafeInteger(input, field.direction);
  }
  const read = readTyped(field.type, field.normalization, input, textAllowed);
  if ('problem' in read) refuse(field.field, read.problem);
  return plain ? (read.value as string) : encodeField(field.type, field.direction, read.value);
}

/** A route lookup's value of the first field; a plain one only normalized (U+0000 and all). */
export function encodeLookupKey(order: CollectionOrder, key: string, refuse: Refuse): string {
  return isPlain(order) ? normalize(key, order[0]!.normalization) : encodeOrderPrefix(order, [key], true, refuse);
}

/** What the encoding of every value whose field at `position` (a string) starts with `prefix` begins with. */
export function encodeStringPrefixAt(order: CollectionOrder, position: number, prefix: string, refuse: Refuse) {
  const field = order[position]!;
  if (field.type !== 'string') refuse(field.field, `is a ${field.type}; prefix applies to string fields`);
  const read = readString(prefix, field.normalization);
  if ('problem' in read) refuse(field.field, read.problem);
  const normalized = read.value as string;
  if (isPlain(order)) return normalized;
  return field.direction === 'asc' ? encodeString(normalized, false) : encodeStringDescending(normalized, false);
}

/**
 * Past every ordered value that starts with `encoded`'s whole fields, or (`prefix`) a string field's
 * prefix. A plain value has no end mark nor field after it: it is its own last.
 */
export function upperBoundOf(order: CollectionOrder, encoded: string, prefix: boolean): ValueBound | undefined {
  if (isPlain(order) && !prefix) return { value: encoded, inclusive: true };
  const successor = prefixSuccessor(encoded);
  return successor === undefined ? undefined : { value: successor, inclusive: false };
}

/** The field values of an ordered value or a tuple prefix (see `presentTyped`); throws a malformed record if none. */
export function decodeOrderedValue(order: CollectionOrder, encoded: string): FieldValues {
  if (isPlain(order)) return [encoded];
  const values: FieldValues = [];
  let at = 0;
  for (const field of order) {
    if (at === encoded.length) break;
    const { value, end } = decodeField(field.type, field.direction, encoded, at);
    values.push(presentTyped(field.type, value));
    at = end;
  }
  if (at !== encoded.length) throw malformedRecord('not an ordered value: text after its last field');
  return values;
}

/** An encoded value as field values (`[]`, `[2020]` for a cut after one field); undefined for a plain order's. */
export function readableValues(order: CollectionOrder, encoded: string): FieldValues | undefined {
  if (isPlain(order)) return undefined;
  try {
    return decodeOrderedValue(order, encoded);
  } catch {
    return undefined;
  }
}

/** Boundaries as field values; undefined for a plain order, or if one boundary reads as none. */
export function readableBoundaries(order: CollectionOrder, boundaries: readonly string[]): FieldValues[] | undefined {
  const values = boundaries.map((boundary) => readableValues(order, boundary));
  return values.every((value) => value !== undefined) ? (values as FieldValues[]) : undefined;
}

/**
 * A boundary as a config or boundaries file writes it (a plain order's a string; any other's a tuple of leading
 * field values: `[]` first, `[2020]`, `[2020, "m"]`), as the ordered value a range strategy bisects.
 */
export function encodeBoundary(order: CollectionOrder, boundary: string | readonly (string | number)[], i: number) {
  if (isPlain(order) !== (typeof boundary === 'string')) {
    throw invalidRequest(
      isPlain(order)
        ? `boundaries: boundary ${i} is a tuple, but this collection orders by one string field`
        : `boundaries: boundary ${i} is a string; a typed order's boundaries are tuples of field values ([] first)`,
    );
  }
  if (typeof boundary === 'string') return boundary;
  return encodeOrderPrefix(order, boundary, true, (field, problem) => {
    throw invalidRequest(`boundaries: boundary ${i} ${JSON.stringify(boundary)}: field "${field}" ${problem}`);
  });
}

/**
 * Range cuts rounded up to whole fields, so each decodes to a tuple: a cut becomes the first of the sorted
 * `values` at or above it up to the end of the field the cut ends in, so it separates the same values.
 */
export function roundedBoundaries(order: CollectionOrder, boundaries: readonly string[], values: SortedView): string[] {
  if (isPlain(order)) return [...boundaries];
  return boundaries.map((cut) => {
    const next = values.at(bisectLeftIn(values, cut));
    if (next === undefined || cut.length === 0) return cut;
    let at = 0;
    for (const field of order) {
      at = decodeField(field.type, field.direction, next, at).end;
      if (at >= cut.length) return next.slice(0, at);
    }
    return next;
  });
}

/** `field "title" is` or `fields "year", "title" are`, for messages about the ordered value. */
export function orderLabel(collection: CollectionSpec): string {
  const names = orderOf(collection).map((field) => JSON.stringify(field.field));
  return names.length === 1 ? `field ${names[0]} is` : `fields ${names.join(', ')} are`;
}

/** As the API describes an order: a plain one by its normalization, any other by its fields. */
export function describeOrder(order: CollectionOrder) {
  if (isPlain(order)) return { normalization: order[0]!.normalization };
  // A number field has no normalization to speak of.
  const described = ({ field, type, direction, normalization }: OrderField) =>
    type === 'string' ? { field, type, direction, normalization } : { field, type, direction };
  return { order: order.map(described) };
}

/** How keys are read, for reports: `normalization nfkd-lower`, or each field's type (a string's normalization). */
export function orderForm(order: CollectionOrder): string {
  if (isPlain(order)) return `normalization ${order[0]!.normalization}`;
  const fields = order.map(({ field, type, direction, normalization }) =>
    [field, type === 'string' ? normalization : type, ...(direction === 'desc' ? ['desc'] : [])].join(' '),
  );
  return `order ${fields.join(', ')}`;
}

/** What a boundaries file records of its normalization: a plain order's; field values normalize as they are read. */
export function writtenNormalization(order: CollectionOrder): { normalization: Normalization } | undefined {
  return isPlain(order) ? { normalization: order[0]!.normalization } : undefined;
}
