import { compareKeys, utf8Length } from './collation';
import { invalidRequest } from './errors';
import { MAX_SORT_KEY_BYTES } from './index-key';
import { type CollectionOrder, encodeLookupKey, encodeOrderPrefix, encodeStringPrefixAt, upperBoundOf } from './order';
import type { ListFilter } from './plan';
import type { ValueBound, ValueRange } from './strategies';

export interface FilterQuery {
  readonly key?: string | undefined;
  readonly prefix?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/**
 * A listing's filter as bounds on encoded values: `key` fixes the leading field (on a one-field order, one exact
 * value); `from`/`to` (inclusive whatever the direction) or `prefix` bound the field after it. Encodings are
 * prefix-free, so tuples starting with P are [enc(P), successor(enc(P))). A 400 names parameter and field.
 */
export function listingFilter(order: CollectionOrder, query: FilterQuery): { filter: ListFilter; scope: string } {
  const { key, prefix, from, to } = query;
  if (prefix !== undefined && (from !== undefined || to !== undefined)) {
    throw invalidRequest('use prefix or from/to, not both');
  }
  const fixed = key === undefined ? '' : keyConditionValue(encode(order, [key], 'key'), 'key');
  const position = key === undefined ? 0 : 1;
  const bounded = prefix !== undefined || from !== undefined || to !== undefined;
  if (!bounded && key === undefined) return { filter: { kind: 'all' }, scope: JSON.stringify(['all']) };
  if (!bounded && position === order.length) {
    const exact: ValueBound = { value: fixed, inclusive: true };
    return result({ lower: exact, upper: exact }, true);
  }
  const field = order[position];
  if (bounded && !field) {
    throw invalidRequest(`use at most one filter: key, prefix, or from/to ("${order[0]!.field}" is the only field)`);
  }
  let low = fixed;
  let high: string | undefined = fixed;
  if (prefix !== undefined) {
    const encoded = encodeStringPrefixAt(order, position, prefix, refuseParameter('prefix', false));
    low = high = keyConditionValue(fixed + encoded, 'prefix');
  } else if (bounded) {
    const keyPart = key === undefined ? [] : [key];
    const fromEncoded =
      from === undefined ? undefined : keyConditionValue(encode(order, [...keyPart, from], 'from'), 'from');
    const toEncoded = to === undefined ? undefined : keyConditionValue(encode(order, [...keyPart, to], 'to'), 'to');
    const descending = field!.direction === 'desc';
    if (fromEncoded !== undefined && toEncoded !== undefined) {
      const sign = compareKeys(fromEncoded, toEncoded) * (descending ? -1 : 1);
      if (sign > 0) throw invalidRequest(`from must not be above to (field "${field!.field}")`, { from, to });
    }
    // A descending field lists its highest values first: `to` is where the encoded interval starts.
    const [first, last] = descending ? [toEncoded, fromEncoded] : [fromEncoded, toEncoded];
    low = first ?? fixed;
    high = last ?? (fixed === '' ? undefined : fixed);
  }
  const lower = low === '' ? undefined : { value: low, inclusive: true };
  const upper = high === undefined ? undefined : upperBoundOf(order, high, prefix !== undefined);
  return result({ ...(lower && { lower }), ...(upper && { upper }) }, false);
}

/** The filter, and its identity for cursors: a cursor resumes only the listing with the same bounds. */
function result(range: { lower?: ValueBound; upper?: ValueBound }, exact: boolean) {
  const filter: ListFilter = { kind: 'values', range, exact };
  const bound = (b: ValueBound | undefined) => (b ? [b.value, b.inclusive] : null);
  return { filter, scope: JSON.stringify(['values', bound(range.lower), bound(range.upper), exact]) };
}

/**
 * The longest filter value (as indexed) a key condition can hold: its bound on the index sort key is the value
 * or one byte more (VALUE_END, or `prefixSuccessor`'s last code point a byte longer).
 */
const MAX_FILTER_VALUE_BYTES = MAX_SORT_KEY_BYTES - 1;

/** `encoded`, or a 400 naming the parameter when it is too long for a key condition: before any call. */
function keyConditionValue(encoded: string, parameter: string): string {
  const bytes = utf8Length(encoded);
  if (bytes > MAX_FILTER_VALUE_BYTES) {
    throw invalidRequest(
      `${parameter} is ${bytes} bytes as indexed; at most ${MAX_FILTER_VALUE_BYTES} fit DynamoDB's ` +
        `${MAX_SORT_KEY_BYTES}-byte sort key limit`,
      { parameter, limit: MAX_FILTER_VALUE_BYTES },
    );
  }
  return encoded;
}

function encode(order: CollectionOrder, values: readonly unknown[], parameter: string): string {
  return encodeOrderPrefix(order, values, true, refuseParameter(parameter));
}

/** `withDetails`: the 400 names parameter and field in its details too (a bad prefix never did). */
function refuseParameter(parameter: string, withDetails = true) {
  return (field: string, problem: string): never => {
    throw invalidRequest(`${parameter}: field "${field}" ${problem}`, withDetails ? { parameter, field } : undefined);
  };
}

/**
 * What a route lookup asks about: on a one-field order one value; on several, a JSON array of all their values,
 * or one value of the first field alone (every tuple starting with it, a `range`). A 400 names the field.
 */
export function routeLookup(order: CollectionOrder, key: string): { normalized: string; range?: ValueRange } {
  if (order.length === 1) return { normalized: encodeLookupKey(order, key, refuseParameter('key')) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {}
  if (!Array.isArray(parsed)) {
    const { filter } = listingFilter(order, { key });
    return { normalized: encode(order, [key], 'key'), ...(filter.kind === 'values' && { range: filter.range }) };
  }
  if (parsed.length !== order.length) {
    throw invalidRequest(
      `key: one value of "${order[0]!.field}", or a JSON array of the ${order.length} order fields' values`,
    );
  }
  return { normalized: encode(order, parsed, 'key') };
}
