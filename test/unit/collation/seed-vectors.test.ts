import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import { normalize } from '../../../src/core/normalize';
import { hashShard } from '../../../src/core/strategies/hash';
import { rangeStrategy } from '../../../src/core/strategies/range';

interface SeedVectors {
  boundaries: string[];
  cases: { key: string; normalized: string; range: number; hash21: number }[];
  sorted: string[];
}

/** Cases computed with the seed's own Python functions (copied from shared/vectors into test/fixtures). */
const vectors = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../fixtures/seed-vectors.json'), 'utf8'),
) as SeedVectors;

describe('seed compatibility', () => {
  const albums = rangeStrategy(vectors.boundaries);
  const never = () => {
    throw new Error('a non-heavy key must not draw a random shard');
  };

  it("routes the seed's examples: 2 Pie Island → 0, Heavy Migration → 7, Leaving Home → 9, Space Cadet → 15", () => {
    const route = (title: string) => albums.shardForWrite(normalize(title, 'nfkd-lower'), never);
    expect([route('2 Pie Island'), route('Heavy Migration'), route('Leaving Home'), route('Space Cadet')]).toEqual([
      0, 7, 9, 15,
    ]);
  });

  it.each(vectors.cases.map((c) => [JSON.stringify(c.key), c] as const))(
    '%s normalizes and routes as in Python',
    (_, c) => {
      const normalized = normalize(c.key, 'nfkd-lower');
      expect(normalized).toBe(c.normalized);
      expect(albums.shardForWrite(normalized, never)).toBe(c.range);
      expect(hashShard(normalized, 21)).toBe(c.hash21);
    },
  );

  it('sorts the keys as Python sorts their normalized forms', () => {
    const ours = vectors.cases
      .map((c) => c.key)
      .sort((a, b) => compareKeys(normalize(a, 'nfkd-lower'), normalize(b, 'nfkd-lower')));
    expect(ours.map((key) => normalize(key, 'nfkd-lower'))).toEqual(
      vectors.sorted.map((key) => normalize(key, 'nfkd-lower')),
    );
  });
});
