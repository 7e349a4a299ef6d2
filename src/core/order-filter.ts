import { compareKeys } from './collation';
import { invalidRequest } from './errors';
import { prefixSuccessor } from './key-range';
import { encodeOrderPrefix, isTypedOrder, type CollectionOrder, type OrderField } from './order';
import { encodeStringDescending, encodeStringPrefix } from './order-encoding';
import { readString } from './order-values';
import type { ListFilter } from './plan';
import type { ValueBound, ValueRange } from './strategies';

export interface FilterQuery {
  readonly key?: string | undefined;
  readonly prefix?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/**
 * A listing's filter as bounds on encoded values. `key` fixes the leading field; `from`/`to` (an
 * inclusive interval whatever the direction) or `prefix` (strings) bound the field after it. On a
 * one-field order `key` is one exact value, read from only the shards it can be on. Encodings are
 * prefix-free, so "tuples whose leading fields are P" is [enc(P), successor(enc(P))). Throws a 400
 * naming the parameter and the field.
 */
export function listingFilter(order: CollectionOrder, query: FilterQuery): { filter: ListFilter; scope: string } {
  const { key, prefix, from, to } = query;
  if (prefix !== undefined && (from !== undefined || to !== undefined)) {
    throw invalidRequest('use prefix or from/to, not both');
  }
  const fixed = key === undefined ? '' : encode(order, [key], 'key');
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
    low = high = fixed + prefixEncoding(order, field!, prefix);
  } else if (bounded) {
    const keyPart = key === undefined ? [] : [key];
    const fromEncoded = from === undefined ? undefined : encode(order, [...keyPart, from], 'from');
    const toEncoded = to === undefined ? undefined : encode(order, [...keyPart, to], 'to');
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
  // A plain string value has no end mark: every value up to `to`, not every value `to` starts.
  const plain = !isTypedOrder(order) && prefix === undefined;
  const end = high === undefined || plain ? high : prefixSuccessor(high);
  const upper = end === undefined ? undefined : { value: end, inclusive: plain };
  return result({ ...(lower && { lower }), ...(upper && { upper }) }, false);
}

/** The filter, and its identity for cursors: a cursor resumes only the listing with the same bounds. */
function result(range: { lower?: ValueBound; upper?: ValueBound }, exact: boolean) {
  const filter: ListFilter = { kind: 'values', range, exact };
  const bound = (b: ValueBound | undefined) => (b ? [b.value, b.inclusive] : null);
  return { filter, scope: JSON.stringify(['values', bound(range.lower), bound(range.upper), exact]) };
}

function encode(order: CollectionOrder, values: readonly unknown[], parameter: string): string {
  return encodeOrderPrefix(order, values, true, (field, problem) => {
    throw invalidRequest(`${parameter}: field "${field}" ${problem}`, { parameter, field });
  });
}

/** What the encoding of every value of `field` starting with `prefix` begins with. */
function prefixEncoding(order: CollectionOrder, field: OrderField, prefix: string): string {
  if (field.type !== 'string') {
    throw invalidRequest(`prefix: field "${field.field}" is a ${field.type}; prefix applies to string fields`);
  }
  const read = readString(prefix, field.normalization);
  if ('problem' in read) throw invalidRequest(`prefix: field "${field.field}" ${read.problem}`);
  const normalized = read.value as string;
  if (!isTypedOrder(order)) return normalized;
  return field.direction === 'asc' ? encodeStringPrefix(normalized) : encodeStringDescending(normalized, false);
}

/**
 * What a route lookup asks about: on a one-field order one value; on several, a JSON array of all
 * their values (one ordered value), or one value of the first field alone (every tuple starting
 * with it, a `range`). Throws a 400 naming the field.
 */
export function routeLookup(order: CollectionOrder, key: string): { normalized: string; range?: ValueRange } {
  if (order.length === 1) return { normalized: encode(order, [key], 'key') };
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
