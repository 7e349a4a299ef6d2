import { describe, expect, it } from 'vitest';
import { cutBoundaries } from '../../../src/boundaries/cut-boundaries';
import { keyCountsOf, type KeyCounts } from '../../../src/boundaries/key-counts';
import { seededRandom } from '../../../devtools/random';
import { oracleLoads } from '../../support/boundary-oracle';

/**
 * The smallest largest-shard load over *every* boundary list the router accepts
 * (b[0] = '', non-decreasing, drawn from the values themselves — a separator
 * routes existing keys exactly like the value after it), loads by the oracle.
 */
function bruteForceBest(keys: KeyCounts<readonly string[]>, shards: number): number {
  const choices = keys.values.filter((v) => v !== '');
  let best = Infinity;
  const list = [''];
  const walk = (from: number): void => {
    if (list.length === shards) {
      const loads = oracleLoads(list, keys);
      best = Math.min(best, Math.max(...loads));
      return;
    }
    for (let i = from; i < choices.length; i++) {
      list.push(choices[i]!);
      walk(i); // i, not i + 1: a value may repeat (a heavy-hitter run)
      list.pop();
    }
  };
  walk(0);
  return best;
}

function randomKeys(seed: number): KeyCounts<readonly string[]> {
  const random = seededRandom(seed);
  const distinct = 3 + Math.floor(random() * 6);
  const keys: string[] = [];
  for (let v = 0; v < distinct; v++) {
    // Mostly light values, now and then one heavier than a shard.
    const count = random() < 0.2 ? 5 + Math.floor(random() * 15) : 1 + Math.floor(random() * 4);
    for (let c = 0; c < count; c++) keys.push(String.fromCharCode(97 + v));
  }
  return keyCountsOf(keys);
}

describe('cutBoundaries against an exhaustive search', () => {
  it('reaches the best possible largest shard on small random inputs (tolerance 0)', () => {
    let compared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const keys = randomKeys(seed);
      const shards = 2 + (seed % 3);
      if (shards > keys.values.length) continue;
      const best = bruteForceBest(keys, shards);
      const cut = cutBoundaries(keys, { shards, tolerance: 0 });
      const loads = oracleLoads(cut.boundaries, keys);
      expect(Math.max(...loads), `seed ${seed}: ${JSON.stringify(cut.boundaries)}`).toBeLessThanOrEqual(best + 1e-9);
      expect(cut.boundaries).toHaveLength(shards);
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('stays within the allowed max with a tolerance, and reports the loads the router produces', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const keys = randomKeys(seed);
      const shards = 2 + (seed % 3);
      if (shards > keys.values.length) continue;
      // A search budget too small for the windows must still give a valid cutting.
      for (const searchBudget of [undefined, 3]) {
        const cut = cutBoundaries(keys, { shards, tolerance: 0.2, ...(searchBudget && { searchBudget }) });
        const loads = oracleLoads(cut.boundaries, keys);
        for (let s = 0; s < shards; s++) expect(loads[s]).toBeCloseTo(cut.loads[s]!, 9);
        expect(Math.max(...loads)).toBeLessThanOrEqual(cut.allowedMax + 1e-9);
      }
    }
  });

  it('spreads keys to fill more shards than distinct keys, and refuses what cannot be filled', () => {
    expect(() => cutBoundaries(keyCountsOf(['a', 'b']), { shards: 5 })).toThrow(
      /cannot cut 5 shards from 2 distinct keys/,
    );
    // Fewer distinct keys than shards still works when a key can be spread.
    const few = keyCountsOf(['a', 'a', 'b', 'b']);
    const cut = cutBoundaries(few, { shards: 3 });
    expect(Array.from(oracleLoads(cut.boundaries, few))).toEqual([2, 1, 1]);
    expect(() => cutBoundaries(keyCountsOf([]), { shards: 2 })).toThrow(/no keys/);
  });

  it('spreads one key over every shard when it is all there is', () => {
    const keys = keyCountsOf(Array.from({ length: 40 }, () => 'greatest hits'));
    const cut = cutBoundaries(keys, { shards: 4 });
    // Shard 0 ends below the value, so it stays empty; the value spreads over 1–3.
    expect(cut.boundaries).toEqual(['', 'greatest hits', 'greatest hits', 'greatest hits']);
    expect(Array.from(oracleLoads(cut.boundaries, keys))).toEqual([0, 40 / 3, 40 / 3, 40 / 3]);
  });
});
