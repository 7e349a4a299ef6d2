import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { capacityPlan } from '../../../src/planning/capacity-plan';
import { groupedCapacityPlan } from '../../../src/planning/group-plan';

const ITEMS = { itemBytes: 300, itemsPerQuery: 20 };

describe('groupedCapacityPlan', () => {
  it('sizes every group from its own even share: many cold groups are one shard each', () => {
    const plan = groupedCapacityPlan({ ...ITEMS, groups: 10_000, readsPerSecond: 20_000, writesPerSecond: 50_000 });
    // 2 queries/s and 5 writes/s a group: far inside one partition.
    expect(plan.typical).toMatchObject({ count: 10_000, readsPerSecond: 2, writesPerSecond: 5, shards: 1 });
    expect(plan.defaultShards).toBe(1);
    expect(plan.shardKeys).toBe(10_000);
    expect(plan.hot).toBeUndefined();
    // The same load as one ungrouped random index: every listing reaches every shard, and no count serves it.
    const flat = capacityPlan({ ...ITEMS, readsPerSecond: 20_000, writesPerSecond: 50_000, strategy: 'random' });
    expect(flat.shards).toBeNull();
  });

  it('gives a whale the shards its own write rate needs, and the rest what the whales leave', () => {
    const plan = groupedCapacityPlan({
      ...ITEMS,
      groups: 10_000,
      readsPerSecond: 20_000,
      writesPerSecond: 50_000,
      hot: { count: 2, readsPerSecond: 500, writesPerSecond: 3_500 },
    });
    // 3,500 one-unit writes a second over 1,000 WCU a partition: 4 shards (reads alone need 1).
    expect(plan.hot).toMatchObject({ count: 2, shards: 4 });
    expect(plan.hot!.plan.bindingLimit).toBe('write units');
    expect(plan.typical.count).toBe(9_998);
    expect(plan.typical.writesPerSecond).toBeCloseTo((50_000 - 7_000) / 9_998);
    expect(plan.typical.readsPerSecond).toBeCloseTo((20_000 - 1_000) / 9_998);
    expect(plan.shardKeys).toBe(9_998 * 1 + 2 * 4);
  });

  it('keeps a hot group at least on the default, and says when no shard count serves a group', () => {
    const busy = groupedCapacityPlan({
      ...ITEMS,
      groups: 10,
      readsPerSecond: 0,
      writesPerSecond: 30_000,
      hot: { count: 1, readsPerSecond: 0, writesPerSecond: 100 },
    });
    // The other nine take 3,322 writes/s each: 4 shards a group by default; the quiet "hot" one stays on 4.
    expect(busy.defaultShards).toBe(4);
    expect(busy.hot!.shards).toBe(4);
    expect(busy.shardKeys).toBe(40);
    // 20,000 listings a second of one group: each query costs a unit however many shards share it.
    const unserved = groupedCapacityPlan({
      ...ITEMS,
      groups: 2,
      readsPerSecond: 20_000,
      writesPerSecond: 0,
      hot: { count: 1, readsPerSecond: 20_000, writesPerSecond: 0 },
    });
    expect(unserved.hot!.shards).toBeNull();
    expect(unserved.shardKeys).toBeNull();
  });

  it('refuses groups it cannot plan', () => {
    const load = { ...ITEMS, readsPerSecond: 10, writesPerSecond: 10 };
    expect(() => groupedCapacityPlan({ ...load, groups: 0 })).toThrow(/groups must be/);
    expect(() => groupedCapacityPlan({ ...load, groups: 1.5 })).toThrow(/groups must be/);
    const hot = { count: 3, readsPerSecond: 0, writesPerSecond: 0 };
    expect(() => groupedCapacityPlan({ ...load, groups: 2, hot })).toThrow(/hot groups must be/);
    const greedy = { count: 1, readsPerSecond: 0, writesPerSecond: 11 };
    expect(() => groupedCapacityPlan({ ...load, groups: 2, hot: greedy })).toThrow(/exceed the 10 in all/);
  });
});

describe('npm run plan --groups', () => {
  const run = (...args: string[]) => spawnSync('npm', ['run', '-s', 'plan', '--', ...args], { encoding: 'utf8' });
  const load = '--item-bytes 300 --reads-per-second 20000 --items-per-query 20 --writes-per-second 50000'.split(' ');

  it('explains each kind of group as an index of its own, and the shard keys they add up to', () => {
    const grouped = run(...load, '--groups', '10000', '--hot-group-writes-per-second', '3000');
    expect(grouped.status, grouped.stderr).toBe(0);
    const text = grouped.stdout;
    expect(text).toMatch(/^grouped: 10,000 groups, each an index of its own \(random over its shard keys/);
    expect(text).toContain('typical group (9,999 of them, the even share of what the hot ones leave)');
    // The hot group's reads default to the even share: 2 queries/s.
    expect(text).toContain('hot group (1 of them, each): 2 queries/s, 3,000 items written/s');
    expect(text).toContain('    shards: 3 (decided by write units');
    expect(text).toContain('shard keys: 9,999 × 1 + 1 hot × 3 = 10,002: groups × shards');
    expect(text).toContain('npm run reshard -- --collection C --group G --shards 3');
    const json = JSON.parse(run(...load, '--groups', '10000', '--json').stdout);
    expect(json).toMatchObject({ groups: 10_000, defaultShards: 1, shardKeys: 10_000, input: { groups: 10_000 } });
  });

  it('refuses a grouped plan it cannot make, with exit code 2', () => {
    const hash = run(...load, '--groups', '10', '--strategy', 'hash');
    expect(hash.status).toBe(2);
    expect(hash.stderr).toMatch(/^plan: a grouped collection's groups are random: drop --strategy hash/);
    const alone = run(...load, '--hot-groups', '2');
    expect(alone.status).toBe(2);
    expect(alone.stderr).toMatch(/^plan: --hot-groups needs --groups/);
    const greedy = run(...load, '--groups', '10', '--hot-groups', '2', '--hot-group-writes-per-second', '40000');
    expect(greedy.status).toBe(2);
    expect(greedy.stderr).toMatch(/exceed the 50000 in all/);
    expect(run(...load, '--groups', '10', '--strategy', 'random').status).toBe(0);
  });
});
