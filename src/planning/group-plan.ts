import { invalidRequest } from '../core/errors';
import { capacityPlan, type CapacityInput, type CapacityPlan } from './capacity-plan';

type GroupRates = Pick<CapacityInput, 'readsPerSecond' | 'writesPerSecond'>;

/**
 * A grouped collection's capacity (docs/boundaries.md, "A grouped collection"): every group is a
 * `random` index over its own shard keys, sized from its own load; only a whale needs more than the default.
 */
export interface GroupedCapacityInput extends Omit<CapacityInput, 'strategy'> {
  /** Groups the collection holds; `readsPerSecond` and `writesPerSecond` are every group's together. */
  readonly groups: number;
  /** The hottest groups (whales), each at these rates; absent: every group takes an even share. */
  readonly hot?: GroupRates & { readonly count: number };
}

/** One kind of group (the even share, or a whale): its rates and the plan of its own shards. */
export interface GroupLoad extends GroupRates {
  /** Groups of this kind. */
  readonly count: number;
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
    throw invalidRequest(`groups must be a whole number of at least 1, got ${groups}`);
  const hot = input.hot;
  const hotCount = hot?.count ?? 0;
  if (!Number.isInteger(hotCount) || hotCount < 0 || hotCount > groups) {
    throw invalidRequest(`hot groups must be a whole number from 0 to ${groups}, got ${hotCount}`);
  }
  const others = groups - hotCount;
  // What the hot groups leave of the collection's rates, shared evenly by the others.
  const rest = (total: number, each: number, name: string) => {
    const left = total - hotCount * each;
    if (left < -1e-9)
      throw invalidRequest(`${hotCount} hot groups at ${each} ${name}/s each exceed the ${total} in all`);
    return others === 0 ? 0 : Math.max(0, left) / others;
  };
  const shared = {
    readsPerSecond: rest(readsPerSecond, hot?.readsPerSecond ?? 0, 'reads'),
    writesPerSecond: rest(writesPerSecond, hot?.writesPerSecond ?? 0, 'writes'),
  };
  const typicalPlan = capacityPlan(groupInput(input, shared));
  const defaultShards = typicalPlan.shards;
  const typical: GroupLoad = { count: others, ...shared, plan: typicalPlan, shards: defaultShards };
  let whales: GroupLoad | undefined;
  if (hot && hotCount > 0) {
    const plan = capacityPlan(groupInput(input, hot));
    // A hot group is grown from the default, never below it.
    const shards = plan.shards === null ? null : Math.max(plan.shards, defaultShards ?? 1);
    whales = { ...hot, plan, shards };
  }
  const keys = (load: GroupLoad | undefined) => (!load ? 0 : load.shards === null ? null : load.count * load.shards);
  const [typicalKeys, hotKeys] = [keys(typical), keys(whales)];
  const shardKeys = typicalKeys === null || hotKeys === null ? null : typicalKeys + hotKeys;
  return { groups, typical, ...(whales && { hot: whales }), defaultShards, shardKeys };
}

/** The plan input of one group at `rates`: a `random` index of its own. */
export function groupInput(input: GroupedCapacityInput, rates: GroupRates): Required<CapacityInput> {
  const { itemBytes, itemsPerQuery, consistent = false } = input;
  const { readsPerSecond, writesPerSecond } = rates;
  return { itemBytes, itemsPerQuery, readsPerSecond, writesPerSecond, consistent, strategy: 'random' };
}
