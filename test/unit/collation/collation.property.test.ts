import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bisectLeft, bisectRight, compareKeys, sortedKeys, utf8Length } from '../../../src/core/collation';
import { text } from '../../support/arbitraries';

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const oracle = (a: string, b: string) => Math.sign(Buffer.compare(utf8(a), utf8(b)));

describe('collation (property)', () => {
  it('compareKeys agrees with Buffer.compare of the UTF-8 bytes', () => {
    fc.assert(
      fc.property(text(), text(), (a, b) => {
        expect(Math.sign(compareKeys(a, b))).toBe(oracle(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on strings that share a prefix (the index sort key case)', () => {
    fc.assert(
      fc.property(text(), text(4), text(4), (prefix, a, b) => {
        expect(Math.sign(compareKeys(prefix + a, prefix + b))).toBe(oracle(prefix + a, prefix + b));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorting with compareKeys orders by UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.array(text(), { maxLength: 40 }), (values) => {
        const sorted = [...values].sort(compareKeys).map(utf8);
        for (let i = 1; i < sorted.length; i++)
          expect(Buffer.compare(sorted[i - 1]!, sorted[i]!)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('bisectRight and bisectLeft match a linear scan', () => {
    fc.assert(
      fc.property(fc.array(text(), { maxLength: 30 }), text(), (values, key) => {
        const sorted = [...values].sort(compareKeys);
        expect(bisectRight(sorted, key)).toBe(sorted.filter((v) => compareKeys(v, key) <= 0).length);
        expect(bisectLeft(sorted, key)).toBe(sorted.filter((v) => compareKeys(v, key) < 0).length);
      }),
    );
  });

  it('sortedKeys bisects by UTF-8 bytes, with or without units >= U+D800 among the sorted keys', () => {
    // Keys always may hold them (emoji against U+E000–U+FFFF is where UTF-16 order is wrong);
    // half the time the sorted keys are kept below U+D800, where the engine's `<` is used.
    const below = text().map((s) => s.replace(/[\uD800-\uFFFF]/g, 'z'));
    fc.assert(
      fc.property(fc.boolean(), fc.array(text(), { maxLength: 30 }), text(), text(4), (low, values, head, tail) => {
        const sorted = values.map((v) => (low ? v.replace(/[\uD800-\uFFFF]/g, 'z') : v)).sort(compareKeys);
        const bisect = sortedKeys(sorted);
        // A key made by concatenation, as typed ordered values are.
        const key = head + tail;
        const atOrBelow = sorted.filter((v) => Buffer.compare(utf8(v), utf8(key)) <= 0).length;
        const below = sorted.filter((v) => Buffer.compare(utf8(v), utf8(key)) < 0).length;
        expect(bisect.bisectRight(key)).toBe(atOrBelow);
        expect(bisect.bisectLeft(key)).toBe(below);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.array(below, { maxLength: 30 }), text(), (values, key) => {
        const sorted = [...new Set(values)].sort(compareKeys);
        for (const value of sorted) expect(sortedKeys(sorted).bisectRight(value)).toBe(sorted.indexOf(value) + 1);
        expect(sortedKeys(sorted).bisectLeft(key)).toBe(bisectLeft(sorted, key));
      }),
    );
  });

  it('utf8Length is the UTF-8 byte count', () => {
    fc.assert(
      fc.property(text(40), (s) => {
        expect(utf8Length(s)).toBe(utf8(s).length);
      }),
      { numRuns: 2000 },
    );
  });
});
