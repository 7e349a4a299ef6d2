import { compareKeys } from './collation';
import { valueLowerBound, valueOfIndexKey, valueUpperBound } from './index-key';
import { effectiveLower, maxLower, minUpper, tighter, type KeyBound, type KeyRange } from './key-range';
import type { OrderDirection } from './order-encoding';
import type { ReadHint } from './read-hint';
import type { ShardStrategy, ValueBound, ValueRange } from './strategies';

/** Every value, or bounds on ordered values (order-filter.ts); `exact`: one value. */
export type ListFilter =
  | { readonly kind: 'all' }
  | { readonly kind: 'values'; readonly range: ValueRange; readonly exact: boolean };

export interface ListRequest {
  readonly filter: ListFilter;
  /** Which way the listing walks the index: `asc` from its lowest key. */
  readonly direction: OrderDirection;
  /** Index sort key of the last item returned (from a verified cursor). */
  readonly after?: string;
  /** What the page before saw past `after` (from the same cursor): sizes reads, never plans them. */
  readonly hint?: ReadHint;
  /** Stored attributes the page returns (a projection; the index keys are read too); all when unset. */
  readonly attributes?: readonly string[];
}

/** Shard groups in read order (each k-way merged, groups concatenated), and the keys every query is bounded by. */
export interface ReadPlan {
  readonly groups: readonly (readonly number[])[];
  readonly keyRange: KeyRange;
  readonly direction: OrderDirection;
}

/** Pure; value filters become index sort key bounds through index-key.ts, whose encoding makes that exact. */
export function planListing(strategy: ShardStrategy, request: ListRequest): ReadPlan {
  const { filter } = request;
  const values: ValueRange = filter.kind === 'all' ? {} : filter.range;
  // Empty filter values mean what they say: `prefix=` and `from=` hold every value, `key=` and `to=` the
  // empty one. Their lower bound is then no bound, on every engine alike.
  let lower = effectiveLower(values.lower && valueLowerBound(values.lower.value, values.lower.inclusive));
  let upper = values.upper && valueUpperBound(values.upper.value, values.upper.inclusive);
  let shardValues: ValueRange = values;

  if (request.after !== undefined) {
    const cursorBound: KeyBound = { key: request.after, inclusive: false };
    // Items sharing the cursor's value may still follow it: keep its shards in range.
    const cursorValue = { value: valueOfIndexKey(request.after), inclusive: true };
    if (request.direction === 'asc') {
      lower = maxLower(lower, cursorBound);
      shardValues = { ...shardValues, lower: tighter(shardValues.lower, cursorValue, byValue) };
    } else {
      upper = minUpper(upper, cursorBound);
      shardValues = { ...shardValues, upper: tighter(shardValues.upper, cursorValue, byValueDown) };
    }
  }

  const groups =
    filter.kind === 'values' && filter.exact && values.lower
      ? [strategy.shardsForValue(values.lower.value)]
      : strategy.groupsForRange(shardValues);
  const keyRange: KeyRange = { ...(lower && { lower }), ...(upper && { upper }) };
  const { direction } = request;
  return { groups: direction === 'asc' ? groups : [...groups].reverse(), keyRange, direction };
}

const byValue = (a: ValueBound, b: ValueBound): number => compareKeys(a.value, b.value);
const byValueDown = (a: ValueBound, b: ValueBound): number => compareKeys(b.value, a.value);
