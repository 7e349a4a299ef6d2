import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config';
import { utf8Length } from '../../src/core/collation';
import { ShardlineError } from '../../src/core/errors';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, SEPARATOR, valueOfIndexKey } from '../../src/core/index-key';
import { itemSize, MAX_ITEM_BYTES, prepareItem } from '../../src/core/item';
import { normalize } from '../../src/core/normalize';
import { demoConfig } from '../support/service';
import { loneSurrogate, rawText, text } from './arbitraries';

const ROOT = resolve(import.meta.dirname, '../..');
const collections = resolveConfig(demoConfig(), {
  readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
});
const collection = fc.constantFrom(...collections);

/** Strings of every size class around the key limits. */
const sized = fc.oneof(
  { weight: 8, arbitrary: text(20) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '€', '😀'), fc.integer({ min: 200, max: 1100 }))
      .map(([c, n]) => c.repeat(n)),
  },
  { weight: 1, arbitrary: rawText(10) },
  { weight: 1, arbitrary: fc.constant('') },
);
const attribute = fc.jsonValue({ maxDepth: 4 });
const item = fc
  .record({
    pk: fc.oneof({ weight: 6, arbitrary: sized }, fc.integer(), fc.constant(null)),
    sk: fc.oneof({ weight: 6, arbitrary: sized }, fc.boolean()),
    title: fc.oneof(
      { weight: 8, arbitrary: sized },
      fc.integer(),
      fc.constant(undefined),
      text(5).map((t) => `${t}${SEPARATOR}x`),
    ),
    extra: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, attribute),
    forged: fc.nat(9),
  })
  .map(({ forged, extra, ...rest }) => ({
    ...rest,
    ...(extra !== undefined && { extra }),
    // Now and then a client tries to set the shard itself.
    ...(forged === 0 && { gsi1pk: 'forged#1' }),
  }));

describe('item validation (property)', () => {
  it('accepts only items DynamoDB can store; refuses the rest with a 4xx ShardlineError', () => {
    const outcomes = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(
        collection,
        fc.oneof({ weight: 9, arbitrary: item }, fc.jsonValue()),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (c, input, roll) => {
          let prepared;
          try {
            prepared = prepareItem(c, input, () => roll);
          } catch (error) {
            expect(error).toBeInstanceOf(ShardlineError);
            expect(['invalid_item', 'key_too_large', 'item_too_large']).toContain((error as ShardlineError).code);
            outcomes.refused++;
            return;
          }
          outcomes.accepted++;
          const record = prepared.record;
          expect(typeof record.pk === 'string' && record.pk.length > 0).toBe(true);
          expect(utf8Length(record.pk as string)).toBeLessThanOrEqual(MAX_PARTITION_KEY_BYTES);
          expect(utf8Length(record.sk as string)).toBeLessThanOrEqual(MAX_SORT_KEY_BYTES);
          expect(utf8Length(prepared.indexKey)).toBeLessThanOrEqual(MAX_SORT_KEY_BYTES);
          expect(prepared.indexKey.isWellFormed()).toBe(true);
          expect(valueOfIndexKey(prepared.indexKey)).toBe(normalize(record.title as string, c.normalization));
          expect(itemSize(record)).toBeLessThanOrEqual(MAX_ITEM_BYTES);
          expect(prepared.shard).toBeGreaterThanOrEqual(0);
          expect(prepared.shard).toBeLessThan(c.strategy.shardCount);
          expect(c.strategy.shardsForValue(valueOfIndexKey(prepared.indexKey))).toContain(prepared.shard);
        },
      ),
      { numRuns: 1500 },
    );
    // Both sides of the line were explored.
    expect(outcomes.accepted).toBeGreaterThan(100);
    expect(outcomes.refused).toBeGreaterThan(100);
  });

  it('never lets a lone surrogate through, anywhere in the item', () => {
    fc.assert(
      fc.property(
        collection,
        fc.constantFrom('pk', 'sk', 'title', 'extra', 'name'),
        text(5),
        loneSurrogate,
        (c, where, base, bad) => {
          const input: Record<string, unknown> = { pk: 'p', sk: 's', title: 't' };
          if (where === 'name') input[`x${bad}`] = 1;
          else if (where === 'extra') input.extra = { nested: [base + bad] };
          else input[where] = base + bad;
          expect(() => prepareItem(c, input, Math.random)).toThrow(ShardlineError);
        },
      ),
    );
  });
});
