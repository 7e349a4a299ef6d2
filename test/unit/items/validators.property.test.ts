import { firstMapOf } from '../../../src/core/collection';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { utf8Length } from '../../../src/core/collation';
import { ShardlineError } from '../../../src/core/errors';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, SEPARATOR, valueOfIndexKey } from '../../../src/core/index-key';
import { itemSize, MAX_ITEM_BYTES, prepareItem } from '../../../src/core/item';
import { normalize } from '../../../src/core/normalize';
import { decodeOrderedValue, orderOf } from '../../../src/core/order';
import { demoConfig } from '../../support/service';
import { loneSurrogate, rawText, text } from '../../support/arbitraries';

const ROOT = resolve(import.meta.dirname, '../../..');
const collections = resolveConfig(demoConfig(), {
  readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
}).map(firstMapOf);
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
/** Primary key values: mostly present (fast-check's strings are often empty). */
const keyPart = fc.oneof(
  { weight: 12, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
  { weight: 4, arbitrary: sized },
);
const item = fc
  .record({
    pk: fc.oneof({ weight: 16, arbitrary: keyPart }, fc.integer(), fc.constant(null)),
    sk: fc.oneof({ weight: 16, arbitrary: keyPart }, fc.boolean()),
    title: fc.oneof(
      { weight: 8, arbitrary: sized },
      fc.integer(),
      fc.constant(undefined),
      text(5).map((t) => `${t}${SEPARATOR}x`),
    ),
    // The typed demo collection (albums-by-year) orders by it; the others carry it as data.
    year: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -9999, max: 9999 }) }, fc.constant(undefined), text(4)),
    // The grouped demo collection (orders) takes its group from customerId and orders by orderDate.
    customerId: fc.oneof({ weight: 8, arbitrary: keyPart }, fc.integer(), fc.constant(undefined)),
    orderDate: fc.oneof(
      { weight: 8, arbitrary: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }) },
      fc.constant(undefined),
      text(4),
    ),
    extra: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, attribute),
    forged: fc.nat(19),
  })
  .map(({ forged, extra, year, customerId, orderDate, ...rest }) => ({
    ...rest,
    ...(year !== undefined && { year }),
    ...(customerId !== undefined && { customerId }),
    ...(orderDate !== undefined && { orderDate: orderDate instanceof Date ? orderDate.toISOString() : orderDate }),
    ...(extra !== undefined && { extra }),
    // Now and then a client tries to set the shard itself.
    ...(forged === 0 && { gsi1pk: 'forged#1' }),
  }));

describe('item validation (property)', () => {
  it('accepts only items DynamoDB can store; refuses the rest with a 4xx ShardlineError', () => {
    const outcomes = { accepted: 0, refused: 0 };
    const acceptedIn = new Map<string, number>();
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
          acceptedIn.set(c.name, (acceptedIn.get(c.name) ?? 0) + 1);
          const record = prepared.record;
          expect(typeof record.pk === 'string' && record.pk.length > 0).toBe(true);
          expect(utf8Length(record.pk as string)).toBeLessThanOrEqual(MAX_PARTITION_KEY_BYTES);
          expect(utf8Length(record.sk as string)).toBeLessThanOrEqual(MAX_SORT_KEY_BYTES);
          expect(utf8Length(prepared.indexKey)).toBeLessThanOrEqual(MAX_SORT_KEY_BYTES);
          expect(prepared.indexKey.isWellFormed()).toBe(true);
          // The index key holds the item's order fields, read back as the client sent them (a date as its instant).
          const instant = (type: string, value: unknown) => (type === 'date' ? Date.parse(value as string) : value);
          expect(
            decodeOrderedValue(orderOf(c), valueOfIndexKey(prepared.indexKey)).map((value, i) =>
              instant(orderOf(c)[i]!.type, value),
            ),
          ).toEqual(
            orderOf(c).map(({ field, type, normalization }) =>
              type === 'string' ? normalize(record[field] as string, normalization) : instant(type, record[field]),
            ),
          );
          // A grouped collection's shard key is its group's: `<prefix>#<group>#<shard>`.
          if (c.group) expect(prepared.shardKey).toBe(`${c.prefix}#${record[c.group.field]}#${prepared.shard}`);
          expect(itemSize(record)).toBeLessThanOrEqual(MAX_ITEM_BYTES);
          expect(prepared.shard).toBeGreaterThanOrEqual(0);
          expect(prepared.shard).toBeLessThan(c.map.strategy.shardCount);
          expect(c.map.strategy.shardsForValue(valueOfIndexKey(prepared.indexKey))).toContain(prepared.shard);
        },
      ),
      { numRuns: 1500 },
    );
    // Both sides of the line were explored.
    expect(outcomes.accepted).toBeGreaterThan(100);
    expect(outcomes.refused).toBeGreaterThan(100);
    // In every collection, the typed one too (its index key is an encoded tuple).
    for (const c of collections) expect(acceptedIn.get(c.name) ?? 0, c.name).toBeGreaterThan(20);
  });

  it('never lets a lone surrogate through, anywhere in the item', () => {
    // Every demo collection takes this item (albums-by-year: a year; orders: a group and a date) but for a surrogate.
    const valid = { pk: 'p', sk: 's', title: 't', year: 2001, customerId: 'c', orderDate: '2026-01-31' };
    for (const c of collections) expect(() => prepareItem(c, valid, Math.random), c.name).not.toThrow();
    fc.assert(
      fc.property(
        collection,
        fc.constantFrom('pk', 'sk', 'title', 'customerId', 'extra', 'name'),
        text(5),
        loneSurrogate,
        (c, where, base, bad) => {
          const input: Record<string, unknown> = { ...valid };
          if (where === 'name') input[`x${bad}`] = 1;
          else if (where === 'extra') input.extra = { nested: [base + bad] };
          else input[where] = base + bad;
          expect(() => prepareItem(c, input, Math.random)).toThrow(ShardlineError);
        },
      ),
    );
  });
});
