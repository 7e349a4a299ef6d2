import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bisectLeft, bisectRight, compareKeys, utf8Length } from '../../src/core/collation';
import { text } from './arbitraries';

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

  it('utf8Length is the UTF-8 byte count', () => {
    fc.assert(
      fc.property(text(40), (s) => {
        expect(utf8Length(s)).toBe(utf8(s).length);
      }),
      { numRuns: 2000 },
    );
  });
});
