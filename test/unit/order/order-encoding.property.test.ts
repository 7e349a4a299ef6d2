import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import { decimalText, MAX_EXPONENT, MIN_EXPONENT, type Decimal } from '../../../src/core/exact-number';
import { indexSortKey, SEPARATOR } from '../../../src/core/index-key';
import { decodeOrderedValue, encodeOrderPrefix, type CollectionOrder, type OrderField } from '../../../src/core/order';
import { encodeField, encodeSafeInteger } from '../../../src/core/order-encoding';
import { readDate, readNumber } from '../../../src/core/order-values';
import { text } from '../../support/arbitraries';

/** A number DynamoDB stores: up to 38 significant digits, magnitude 1E-130 … under 1E+126, or zero. */
const decimal: fc.Arbitrary<Decimal> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Decimal>({ negative: false, digits: '', exponent: 0 }) },
  {
    weight: 12,
    arbitrary: fc
      .record({
        negative: fc.boolean(),
        digits: fc.stringMatching(/^[1-9](\d{0,36}[1-9])?$/),
        // Clustered exponents make ties on exponent (and on leading digits) common.
        exponent: fc.oneof(fc.integer({ min: MIN_EXPONENT, max: MAX_EXPONENT }), fc.integer({ min: -2, max: 3 })),
      })
      .filter((d) => d.digits.length <= 38),
  },
);

/** Exact order of two decimals, computed with integers (no doubles anywhere). */
function compareDecimals(a: Decimal, b: Decimal): number {
  const scaled = (d: Decimal): bigint => {
    if (d.digits === '') return 0n;
    const magnitude = BigInt(d.digits) * 10n ** BigInt(d.exponent - d.digits.length - (MIN_EXPONENT - 40));
    return d.negative ? -magnitude : magnitude;
  };
  const x = scaled(a);
  const y = scaled(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An instant (ns since the epoch, years 0001–9998) written with a random offset. */
const instant = fc
  .record({
    seconds: fc.integer({ min: -62_000_000_000, max: 253_000_000_000 }),
    nanos: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999_999_999 })),
    offsetMinutes: fc.integer({ min: -14 * 60, max: 14 * 60 }),
  })
  .map(({ seconds, nanos, offsetMinutes }) => {
    const local = new Date((seconds + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(offsetMinutes);
    const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0')}`;
    return { ns: BigInt(seconds) * 1_000_000_000n + BigInt(nanos), iso: `${local}${fraction}${offset}` };
  });

const field = fc.record({
  type: fc.constantFrom('string', 'number', 'date') as fc.Arbitrary<OrderField['type']>,
  direction: fc.constantFrom('asc', 'desc') as fc.Arbitrary<OrderField['direction']>,
});

/** A field value as a client writes it; dates carry their instant in ns for the oracle. */
type Value = { readonly input: unknown; readonly ns?: bigint };

function arbitraryValue(type: OrderField['type']): fc.Arbitrary<Value> {
  if (type === 'number') return decimal.map((d): Value => ({ input: decimalText(d) }));
  if (type === 'date') return instant.map((t): Value => ({ input: t.iso, ns: t.ns }));
  return text(10).map((s): Value => ({ input: s.replaceAll(SEPARATOR, '') }));
}

function compareValues(type: OrderField['type'], a: Value, b: Value): number {
  if (type === 'number') return compareDecimals(parse(a.input as string), parse(b.input as string));
  if (type === 'date') return a.ns! < b.ns! ? -1 : a.ns! > b.ns! ? 1 : 0;
  return Math.sign(compareKeys(a.input as string, b.input as string));
}

function parse(text: string): Decimal {
  const read = readNumber(text, true);
  if ('problem' in read) throw new Error(read.problem);
  return read.value as Decimal;
}

/** A random order of one to three fields and two tuples of it (often sharing leading values). */
const orderAndTuples = fc
  .array(field, { minLength: 1, maxLength: 3 })
  .chain((fields) => {
    const order: CollectionOrder = fields.map((f, i) => ({ ...f, field: `f${i}`, normalization: 'none' }));
    const tuple = fc.tuple(...order.map((f) => arbitraryValue(f.type)));
    return fc.tuple(fc.constant(order), tuple, tuple, fc.nat({ max: order.length }));
  })
  .map(([order, a, b, shared]) => [order, a, [...a.slice(0, shared), ...b.slice(shared)], b] as const);

function encode(order: CollectionOrder, tuple: readonly Value[]): string {
  return encodeOrderPrefix(
    order,
    tuple.map((v) => v.input),
    true,
    (f, problem) => {
      throw new Error(`${f} ${problem}`);
    },
  );
}

function tupleOrder(order: CollectionOrder, a: readonly Value[], b: readonly Value[]): number {
  for (let i = 0; i < order.length; i++) {
    const sign = compareValues(order[i]!.type, a[i]!, b[i]!);
    if (sign !== 0) return order[i]!.direction === 'asc' ? sign : -sign;
  }
  return 0;
}

describe('typed order encoding (property)', () => {
  it('orders encodings by code point exactly as the tuples order, field by field and direction', () => {
    fc.assert(
      fc.property(orderAndTuples, ([order, a, near, b]) => {
        for (const other of [near, b]) {
          expect(Math.sign(compareKeys(encode(order, a), encode(order, other)))).toBe(tupleOrder(order, a, other));
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('keeps the tuple order in the index sort key, whatever the primary keys', () => {
    fc.assert(
      fc.property(orderAndTuples, text(4), text(4), ([order, a, , b], pa, pb) => {
        const sign = tupleOrder(order, a, b);
        fc.pre(sign !== 0);
        const keyA = indexSortKey(encode(order, a), [pa]);
        const keyB = indexSortKey(encode(order, b), [pb]);
        expect(Math.sign(compareKeys(keyA, keyB))).toBe(sign);
      }),
      { numRuns: 2000 },
    );
  });

  it('is well-formed text without the separator, and decodes to the values', () => {
    fc.assert(
      fc.property(orderAndTuples, ([order, a]) => {
        const encoded = encode(order, a);
        expect(encoded.isWellFormed()).toBe(true);
        expect(encoded.includes(SEPARATOR)).toBe(false);
        const decoded = decodeOrderedValue(order, encoded);
        expect(decoded).toHaveLength(order.length);
        // What decoding gives reads back to the same encoding: the values are recovered.
        expect(
          encode(
            order,
            decoded.map((input) => ({ input })),
          ),
        ).toBe(encoded);
        order.forEach((f, i) => {
          if (f.type === 'string') expect(decoded[i]).toBe(a[i]!.input);
          if (f.type === 'number') expect(parse(String(decoded[i]))).toEqual(parse(a[i]!.input as string));
          if (f.type === 'date') {
            const back = readDate(decoded[i]);
            const original = readDate(a[i]!.input);
            expect(back).toEqual(original);
            expect(String(decoded[i])).toMatch(/Z$/);
          }
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('encodes a safe integer on its fast path exactly as its decimal text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.maxSafeInteger().map((n) => n - (n % 1000)),
          fc.integer({ min: -3000, max: 3000 }),
          fc.maxSafeInteger(),
        ),
        fc.boolean(),
        fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
        (n, negate, direction) => {
          const value = negate ? -n : n;
          expect(encodeSafeInteger(value, direction)).toBe(encodeField('number', direction, parse(String(value))));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('makes a tuple prefix a prefix of every tuple it starts', () => {
    fc.assert(
      fc.property(orderAndTuples, fc.nat({ max: 3 }), ([order, a], cut) => {
        const length = Math.min(cut, order.length);
        expect(encode(order, a).startsWith(encode(order, a.slice(0, length)))).toBe(true);
      }),
    );
  });
});
