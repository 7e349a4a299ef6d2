import { compareKeys } from '../../core/collation';
import { partitionPoint } from '../../core/partition-point';
import type { ReadPlan } from '../../core/plan';

/** Keys kept per shard end: enough to foresee crossings for pages up to this size. */
const TAIL_KEYS = 256;

type PlanShape = Pick<ReadPlan, 'direction' | 'keyRange'>;

interface Tail {
  /** The shard's last keys, in read order. */
  readonly keys: readonly string[];
  /** The keys are all the shard holds after this key (read order); undefined: all it holds. */
  readonly after: string | undefined;
}

/**
 * The shard tails of one collection (or group) under one map, kept across requests: the last keys of each
 * shard in read order (per direction), as seen the last time a listing read a shard to its end. A page that
 * starts near its shard's end is known to cross into the next, whose query then goes out in the same round
 * trip. Never a source of results: stale or lost tails cost one wasted or late query, never items. Only
 * listings unbounded on the side they read towards use them (elsewhere a read ends at the range's end).
 */
export class ShardTails {
  private readonly tails = new Map<string, Tail>();

  /** Records a read that reached the end of `shard`: `items` are all it holds after `after` (undefined: all). */
  record(
    plan: PlanShape,
    shard: number,
    items: readonly Record<string, unknown>[],
    key: string,
    after: string | undefined,
  ): void {
    if (!towardsShardEnd(plan)) return;
    const kept = items.length > TAIL_KEYS ? items.slice(-TAIL_KEYS) : items;
    const from = items.length > TAIL_KEYS ? (items[items.length - TAIL_KEYS - 1]![key] as string) : after;
    this.tails.set(`${plan.direction}#${shard}`, { keys: kept.map((item) => item[key] as string), after: from });
  }

  /** How many keys the shard holds after `position` (undefined: from its start), if its known tail reaches back. */
  remainingAfter(plan: PlanShape, shard: number, position: string | undefined): number | undefined {
    if (!towardsShardEnd(plan)) return undefined;
    const tail = this.tails.get(`${plan.direction}#${shard}`);
    if (!tail) return undefined;
    const sign = plan.direction === 'asc' ? 1 : -1;
    if (position === undefined) return tail.after === undefined ? tail.keys.length : undefined;
    if (tail.after !== undefined && sign * compareKeys(position, tail.after) < 0) return undefined;
    const keys = tail.keys;
    return keys.length - partitionPoint(0, keys.length, (i) => sign * compareKeys(keys[i]!, position) <= 0);
  }
}

function towardsShardEnd(plan: PlanShape): boolean {
  return plan.direction === 'asc' ? plan.keyRange.upper === undefined : plan.keyRange.lower === undefined;
}

/** One ShardTails per name (a collection's or a group's, with its map version), for a service instance to own. */
export class ShardTailsByCollection {
  private readonly byName = new Map<string, ShardTails>();

  /**
   * At most `limit` ShardTails, the least recently used forgotten first: a grouped collection has one
   * per grown group and map version, up to 10,000 groups, and a forgotten one costs a late query at most.
   */
  constructor(private readonly limit = 1000) {}

  /** The ShardTails of the collection (or group) named `name`, created empty on first use. */
  of(name: string): ShardTails {
    const tails = this.byName.get(name) ?? new ShardTails();
    // Map order is insertion order: taken out and put back, it is the most recently used.
    this.byName.delete(name);
    this.byName.set(name, tails);
    if (this.byName.size > this.limit) this.byName.delete(this.byName.keys().next().value!);
    return tails;
  }
}
