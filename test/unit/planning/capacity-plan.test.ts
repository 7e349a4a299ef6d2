import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { capacityPlan } from '../../../src/planning/capacity-plan';

describe('capacityPlan', () => {
  it("gives the seed's load 22 range shards: 50,000 B a query is 13 units of 4 KB, not 12.2", () => {
    const plan = capacityPlan({ itemBytes: 500, readsPerSecond: 10_000, itemsPerQuery: 100, writesPerSecond: 10_000 });
    // 10,000 queries/s × 13 units × 0.5 RCU = 65,000 RCU/s over 3,000 a partition (bytes alone said 20.35 → 21).
    expect(plan.shards).toBe(22);
    expect(plan.bindingLimit).toBe('reads');
    expect(plan.reads).toMatchObject({ strategy: 'range', queriesPerListing: 1, unitsPerQuery: 13, rcuPerQuery: 6.5 });
    expect(plan.reads.rcuPerSecondPerShard).toBeCloseTo(65_000 / 22);
    expect(plan.writeBytes.bytesPerSecond).toBe(5_000_000);
    expect(plan.writeBytes.shards).toBe(5);
    // A 500-byte write still costs a whole WCU: 10,000 WCU/s over 1,000 per partition.
    expect(plan.writeUnits.shards).toBe(10);
  });

  it('halves read throughput for strongly consistent reads', () => {
    expect(
      capacityPlan({ itemBytes: 500, readsPerSecond: 10_000, itemsPerQuery: 100, writesPerSecond: 0, consistent: true })
        .shards,
    ).toBe(44);
  });

  it('bills every query at least one 4 KB unit: 100 B items, 1 a query, 20,000 queries/s need 4 shards', () => {
    const small = { itemBytes: 100, readsPerSecond: 20_000, itemsPerQuery: 1, writesPerSecond: 0 };
    const range = capacityPlan(small);
    expect(range.shards).toBe(4);
    expect(range.reads).toMatchObject({ unitsPerQuery: 1, rcuPerQuery: 0.5, rcuPerSecondPerShard: 2500 });
    // Every hash or random listing queries every shard: each shard takes all 20,000 queries/s, 10,000 RCU/s.
    for (const strategy of ['hash', 'random'] as const) {
      const fanOut = capacityPlan({ ...small, strategy });
      expect(fanOut.shards, strategy).toBeNull();
      expect(fanOut.reads).toMatchObject({ shards: null, rcuPerQuery: 0.5, rcuPerSecondPerShard: 10_000 });
    }
  });

  it('sizes fan-out listings by the shards every listing reaches, each query at least one unit', () => {
    const load = {
      itemBytes: 500,
      readsPerSecond: 1000,
      itemsPerQuery: 100,
      writesPerSecond: 0,
      strategy: 'hash' as const,
    };
    // 2 shards: 50 items = 25,000 B = 7 units = 3.5 RCU × 1,000/s per shard; 3 shards: 34 items, 5 units, 2,500 RCU/s.
    const plan = capacityPlan(load);
    expect(plan.shards).toBe(3);
    expect(plan.reads).toMatchObject({
      queriesPerListing: 3,
      itemsPerQuery: 34,
      unitsPerQuery: 5,
      rcuPerSecondPerShard: 2500,
    });
    // The same load as range listings: 13 units × 0.5 × 1,000/s = 6,500 RCU/s spread over the shards.
    expect(capacityPlan({ ...load, strategy: 'range' }).shards).toBe(3);
    expect(capacityPlan({ ...load, readsPerSecond: 10_000 }).shards).toBeNull();
  });

  it('is decided by writes when they dominate, per item in whole 1 KB units', () => {
    const small = capacityPlan({ itemBytes: 100, readsPerSecond: 10, itemsPerQuery: 10, writesPerSecond: 5_500 });
    expect(small.writeBytes.shards).toBe(1);
    expect(small.shards).toBe(6);
    expect(small.bindingLimit).toBe('write units');
    const large = capacityPlan({ itemBytes: 2048, readsPerSecond: 10, itemsPerQuery: 10, writesPerSecond: 50_000 });
    expect(large.shards).toBe(100);
  });

  it('needs one shard for no load, and refuses nonsense', () => {
    expect(capacityPlan({ itemBytes: 500, readsPerSecond: 0, itemsPerQuery: 0, writesPerSecond: 0 }).shards).toBe(1);
    expect(() => capacityPlan({ itemBytes: -1, readsPerSecond: 1, itemsPerQuery: 1, writesPerSecond: 1 })).toThrow(
      /itemBytes/,
    );
    expect(() => capacityPlan({ itemBytes: 0, readsPerSecond: 1, itemsPerQuery: 1, writesPerSecond: 1 })).toThrow(
      /itemBytes/,
    );
  });

  it('npm run plan shows the arithmetic, and --json prints {"shards": 22, ...}', () => {
    const args = [
      'run',
      '-s',
      'plan',
      '--',
      '--item-bytes',
      '500',
      '--reads-per-second',
      '10000',
      '--items-per-query',
      '100',
      '--writes-per-second',
      '10000',
    ];
    const text = execFileSync('npm', args, { encoding: 'utf8' });
    expect(text).toContain('5 MB/s');
    expect(text).toContain('13 × 4 KB units');
    expect(text).toMatch(/shards: 22/);
    const json = JSON.parse(execFileSync('npm', [...args, '--json'], { encoding: 'utf8' }));
    expect(json.shards).toBe(22);
    const hash = execFileSync('npm', [...args, '--strategy', 'hash'], { encoding: 'utf8' });
    expect(hash).toContain('no shard count serves these listings');
  });

  it('npm run plan refuses an unknown flag or strategy by name, with exit code 2', () => {
    const run = (...args: string[]) => spawnSync('npm', ['run', '-s', 'plan', '--', ...args], { encoding: 'utf8' });
    const misspelt = run('--item-bytes', '500', '--reads-per-second', '1', '--item-per-query', '1');
    expect(misspelt.status).toBe(2);
    expect(misspelt.stderr).toMatch(/^plan: Unknown option '--item-per-query'/);
    const strategy = run(
      ...'--item-bytes 5 --reads-per-second 1 --items-per-query 1 --writes-per-second 1'.split(' '),
      '--strategy',
      'ring',
    );
    expect(strategy.status).toBe(2);
    expect(strategy.stderr).toMatch(/^plan: --strategy must be range, hash or random, not ring/);
  });
});
