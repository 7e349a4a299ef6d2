import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { capacityPlan } from '../../src/planning/capacity-plan';

describe('capacityPlan', () => {
  it("gives the seed's 21 shards: reads 500 MB/s against ~24 MB/s, writes 5 MB/s against ~1 MB/s", () => {
    const plan = capacityPlan({ itemBytes: 500, readsPerSecond: 10_000, itemsPerQuery: 100, writesPerSecond: 10_000 });
    expect(plan.shards).toBe(21);
    expect(plan.bindingLimit).toBe('reads');
    expect(plan.reads.bytesPerSecond).toBe(500_000_000);
    expect(plan.reads.partitionBytesPerSecond).toBe(3000 * 4096 * 2);
    expect(plan.writeBytes.bytesPerSecond).toBe(5_000_000);
    expect(plan.writeBytes.shards).toBe(5);
    // A 500-byte write still costs a whole WCU: 10,000 WCU/s over 1,000 per partition.
    expect(plan.writeUnits.shards).toBe(10);
  });

  it('halves read throughput for strongly consistent reads', () => {
    expect(
      capacityPlan({ itemBytes: 500, readsPerSecond: 10_000, itemsPerQuery: 100, writesPerSecond: 0, consistent: true })
        .shards,
    ).toBe(41);
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

  it('npm run plan shows the arithmetic, and --json prints {"shards": 21, ...}', () => {
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
    expect(text).toContain('500 MB/s');
    expect(text).toContain('5 MB/s');
    expect(text).toMatch(/shards: 21/);
    const json = JSON.parse(execFileSync('npm', [...args, '--json'], { encoding: 'utf8' }));
    expect(json.shards).toBe(21);
  });
});
