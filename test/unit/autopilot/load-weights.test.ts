import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../devtools/random';
import { loadWeightedCounts } from '../../../src/autopilot/load-weights';
import { cutBoundaries } from '../../../src/boundaries/cut-boundaries';
import { rangeStrategy } from '../../../src/core/strategies/range';
import type { FleetLoad, WriteSample } from '../../../src/load/fleet-load';
import { PARTITION_WCU } from '../../../src/load/load-record';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Shard 1 of ['', 'i', 'n'] holds 600 live "m…" keys and every write, sampled `samples`
 * times; the other shards hold a few quiet keys. Returns the re-cut into six shards.
 */
function recut(seed: number, samples: (live: string[], random: () => number) => string[]) {
  const random = seededRandom(seed);
  const word = () => Array.from({ length: 6 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  const live = Array.from({ length: 600 }, () => `m${word()}`);
  const counts = new Map<string, number>([...live.map((key): [string, number] => [key, 1]), ['a', 1], ['z', 1]]);
  const sampled = samples(live, random);
  const shard = (writes: number, reads = 0) => ({ shard: 0, writeUnitsPerSecond: writes, readUnitsPerSecond: reads });
  const load = {
    shards: [shard(0), shard(0.8 * PARTITION_WCU), shard(0)],
    writeSamples: [[], sampled.map((value): WriteSample => ({ value, units: 2 })), []],
  } as unknown as FleetLoad;
  const weighted = loadWeightedCounts(counts, rangeStrategy(['', 'i', 'n']), load);
  const { boundaries } = cutBoundaries(weighted, { shards: 6 });
  const perShard = new Array<number>(6).fill(0);
  const cut = rangeStrategy(boundaries);
  for (const key of live) perShard[cut.shardsForValue(key)[0]!]! += 1;
  return { boundaries, perShard };
}

describe('load-weighted keys for the autopilot’s range re-cut', () => {
  it('spreads a hot shard’s writes over its live keys when a few samples are all the evidence', () => {
    // Eight samples of 600 keys: a cut between samples alone leaves shards of very unequal size.
    for (let seed = 1; seed <= 20; seed++) {
      const { boundaries, perShard } = recut(seed, (live, random) =>
        Array.from({ length: 8 }, () => live[Math.floor(random() * live.length)]!),
      );
      expect(Math.max(...perShard), `seed ${seed}: ${JSON.stringify({ boundaries, perShard })}`).toBeLessThanOrEqual(
        (1.5 * 600) / 6,
      );
    }
  });

  it('follows the samples where there are many: writes into a narrow range of new keys get most shards', () => {
    // 2,000 sampled writes, all between "mz" and "n": the live keys spread over all of "m".
    const { boundaries } = recut(7, (_live, random) =>
      Array.from({ length: 2000 }, () => `mz${Math.floor(random() * 1e6).toString(36)}`),
    );
    const insideHotRange = boundaries.filter((b) => b.startsWith('mz')).length;
    expect(insideHotRange, JSON.stringify(boundaries)).toBeGreaterThanOrEqual(4);
  });
});
