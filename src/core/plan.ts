import { compareKeys } from './collation';
import { invalidRequest } from './errors';
import { valueLowerBound, valueOfIndexKey, valueUpperBound } from './index-key';
import { effectiveLower, maxLower, minUpper, prefixSuccessor, type KeyBound, type KeyRange } from './key-range';
import type { ReadHint } from './read-hint';
import { normalize, type Normalization } from './normalize';
import type { ShardStrategy, ValueRange } from './strategies';

export type SortOrder = 'asc' | 'desc';

/** At most one filter narrows a listing; values are as the client sent them. */
export type ListFilter =
  | { readonly kind: 'all' }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'between'; readonly from?: string; readonly to?: string }
  /** Bounds on ordered values already encoded (typed orders, see order-filter.ts); `exact`: one value. */
  | { readonly kind: 'values'; readonly range: ValueRange; readonly exact: boolean };

export interface ListRequest {
  readonly filter: ListFilter;
  readonly order: SortOrder;
  /** Index sort key of the last item already returned (from a verified cursor). */
  readonly after?: string;
  /** What the page before saw past `after` (from the same cursor): sizes reads, never plans them. */
  readonly hint?: ReadHint;
  /** Stored attributes the page returns (a projection; the index keys are read too); all when unset. */
  readonly attributes?: readonly string[];
}

/**
 * What to read for one listing: shard groups in read order (each group k-way
 * merged, groups concatenated) and the interval of index sort keys every shard
 * query is bounded by.
 */
export interface ReadPlan {
  readonly groups: readonly (readonly number[])[];
  readonly keyRange: KeyRange;
  readonly order: SortOrder;
}

export interface PlanContext {
  readonly strategy: ShardStrategy;
  readonly normalization: Normalization;
}

/**
 * Turns a listing request into a read plan. Pure; value filters become index sort
 * key bounds through index-key.ts, whose encoding makes the mapping exact.
 */
export function planListing(context: PlanContext, request: ListRequest): ReadPlan {
  const { strategy, normalization } = context;
  const values = valueRange(request.filter, normalization);
  // Empty filter values mean what they say: `prefix=` and `from=` hold every value, `key=` and `to=` the
  // empty one. Their lower bound is then no bound, on every engine alike.
  let lower = effectiveLower(values.lower && valueLowerBound(values.lower.value, values.lower.inclusive));
  let upper = values.upper && valueUpperBound(values.upper.value, values.upper.inclusive);
  let shardValues: ValueRange = values;

  if (request.after !== undefined) {
    const cursorBound: KeyBound = { key: request.after, inclusive: false };
    // Items sharing the cursor's value may still follow it: keep its shards in range.
    const cursorValue = { value: valueOfIndexKey(request.after), inclusive: true };
    if (request.order === 'asc') {
      lower = maxLower(lower, cursorBound);
      shardValues = { ...shardValues, lower: maxValue(shardValues.lower, cursorValue, 1) };
    } else {
      upper = minUpper(upper, cursorBound);
      shardValues = { ...shardValues, upper: maxValue(shardValues.upper, cursorValue, -1) };
    }
  }

  const { filter } = request;
  const groups =
    filter.kind === 'key'
      ? [strategy.shardsForValue(normalize(filter.key, normalization))]
      : filter.kind === 'values' && filter.exact && filter.range.lower
        ? [strategy.shardsForValue(filter.range.lower.value)]
        : strategy.groupsForRange(shardValues);
  const keyRange: KeyRange = { ...(lower && { lower }), ...(upper && { upper }) };
  return { groups: request.order === 'asc' ? groups : [...groups].reverse(), keyRange, order: request.order };
}

function valueRange(filter: ListFilter, normalization: Normalization): ValueRange {
  switch (filter.kind) {
    case 'all':
      return {};
    case 'values':
      return filter.range;
    case 'key': {
      const value = normalize(filter.key, normalization);
      return { lower: { value, inclusive: true }, upper: { value, inclusive: true } };
    }
    case 'prefix': {
      const value = normalize(filter.prefix, normalization);
      const successor = prefixSuccessor(value);
      return {
        lower: { value, inclusive: true },
        ...(successor !== undefined && { upper: { value: successor, inclusive: false } }),
      };
    }
    case 'between': {
      const from = filter.from === undefined ? undefined : normalize(filter.from, normalization);
      const to = filter.to === undefined ? undefined : normalize(filter.to, normalization);
      if (from !== undefined && to !== undefined && compareKeys(from, to) > 0) {
        throw invalidRequest('from must not sort after to (after normalization)', { from, to });
      }
      return {
        ...(from !== undefined && { lower: { value: from, inclusive: true } }),
        ...(to !== undefined && { upper: { value: to, inclusive: true } }),
      };
    }
  }
}

/** The tighter of two value bounds in direction `sign` (1: lower bounds, -1: upper bounds). */
function maxValue(
  current: ValueRange['lower'],
  candidate: { value: string; inclusive: boolean },
  sign: 1 | -1,
): { value: string; inclusive: boolean } {
  if (!current) return candidate;
  const order = compareKeys(candidate.value, current.value) * sign;
  if (order > 0) return candidate;
  if (order < 0) return current;
  return current.inclusive ? candidate : current;
}
