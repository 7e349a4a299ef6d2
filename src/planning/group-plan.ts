import { capacityPlan, type CapacityInput, type CapacityPlan } from './capacity-plan';

/**
 * A grouped collection's capacity: every group is a `random` index of its own over its own shard keys
 * (`<prefix>#<group>#<shard>`), so a group's shards are sized from that group's load alone and the
 * collection's shard keys are its groups' shards added up. DynamoDB caps each shard key at one
 * partition's throughput and spreads the keys over as many partitions as the table needs: groups × shards
 * is the count of keys the load is spread over, and only a group too hot for one key needs more than the
 * default (a whale, grown on its own with `npm run reshard -- --group G --shards N`).
 */
export interface GroupedCapacityInput {
  /** Size of one index item in bytes (keys plus projected attributes). */
  readonly itemBytes: number;
  /** Items one listing query returns. */
  readonly itemsPerQuery: number;
  /** Strongly consistent reads (GSIs only offer eventual consistency). */
  readonly consistent?: boolean;
  /** Groups the collection holds. */
  readonly groups: number;
  /** Listing queries per second, every group together. */
  readonly readsPerSecond: number;
  /** Item writes per second, every group together. */
  readonly writesPerSecond: number;
  /** The hottest groups (whales), each at these rates; absent: every group takes an even share. */
  readonly hot?: { readonly count: number; readonly readsPerSecond: number; readonly writesPerSecond: number };
}

/** One kind of group (the even share, or a whale): its rates and the plan of its own shards. */
export interface GroupLoad {
  /** Groups of this kind. */
  readonly count: number;
  readonly readsPerSecond: number;
  readonly writesPerSecond: number;
  /** The plan of one such group as a `random` index of its own. */
  readonly plan: CapacityPlan;
  /** Shards each such group gets: its plan's (a hot group's at least the default); null when none serves. */
  readonly shards: number | null;
}

export interface GroupedCapacityPlan {
  readonly groups: number;
  /** Every group but the hot ones: its shards are the collection's default (its config's `strategy.shards`). */
  readonly typical: GroupLoad;
  readonly hot?: GroupLoad;
  /** Shards of a group on the default, or null when no shard count serves a typical group's listings. */
  readonly defaultShards: number | null;
  /** Shard keys over all groups: typical × default + hot × their own; null when some group has no plan. */
  readonly shardKeys: number | null;
}

/** Shards of each kind of group from its own load, and the shard keys they add up to. */
export function groupedCapacityPlan(input: GroupedCapacityInput): GroupedCapacityPlan {
  const { groups, readsPerSecond, writesPerSecond } = input;
  if (!Number.isInteger(groups) || groups < 1)
    throw new Error(`groups must be a whole number of at least 1, got ${groups}`);
  const hot = input.hot;
  const hotCount = hot?.count ?? 0;
  if (!Number.isInteger(hotCount) || hotCount < 0 || hotCount > groups) {
    throw new Error(`hot groups must be a whole number from 0 to ${groups}, got ${hotCount}`);
  }
  const others = groups - hotCount;
  // What the hot groups leave of the collection's rates, shared evenly by the others.
  const rest = (total: number, each: number, name: string) => {
    const left = total - hotCount * each;
    if (left < -1e-9) throw new Error(`${hotCount} hot groups at ${each} ${name}/s each exceed the ${total} in all`);
    return others === 0 ? 0 : Math.max(0, left) / others;
  };
  const shared = {
    readsPerSecond: rest(readsPerSecond, hot?.readsPerSecond ?? 0, 'reads'),
    writesPerSecond: rest(writesPerSecond, hot?.writesPerSecond ?? 0, 'writes'),
  };
  const planOf = (rates: { readsPerSecond: number; writesPerSecond: number }): CapacityPlan => {
    const one: CapacityInput = {
      itemBytes: input.itemBytes,
      itemsPerQuery: input.itemsPerQuery,
      readsPerSecond: rates.readsPerSecond,
      writesPerSecond: rates.writesPerSecond,
      strategy: 'random',
      ...(input.consistent !== undefined && { consistent: input.consistent }),
    };
    return capacityPlan(one);
  };
  const typicalPlan = planOf(shared);
  const defaultShards = typicalPlan.shards;
  const typical: GroupLoad = { count: others, ...shared, plan: typicalPlan, shards: defaultShards };
  let whales: GroupLoad | undefined;
  if (hot && hotCount > 0) {
    const plan = planOf(hot);
    // A hot group is grown from the default, never below it.
    const shards = plan.shards === null ? null : Math.max(plan.shards, defaultShards ?? 1);
    const { readsPerSecond, writesPerSecond } = hot;
    whales = { count: hotCount, readsPerSecond, writesPerSecond, plan, shards };
  }
  const keys = (load: GroupLoad | undefined) => (!load ? 0 : load.shards === null ? null : load.count * load.shards);
  const [typicalKeys, hotKeys] = [keys(typical), keys(whales)];
  const shardKeys = typicalKeys === null || hotKeys === null ? null : typicalKeys + hotKeys;
  return { groups, typical, ...(whales && { hot: whales }), defaultShards, shardKeys };
}
