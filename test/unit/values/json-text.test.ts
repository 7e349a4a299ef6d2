import fc from 'fast-check';
import { stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../src/core/exact-number';
import { jsonText } from '../../../src/http/json-text';

/** lossless-json's writer, told to write an ExactNumber's digits: the reference. */
const reference = (value: unknown) =>
  stringify(value, undefined, undefined, [
    { test: (v: unknown) => v instanceof ExactNumber, stringify: (v: unknown) => (v as ExactNumber).text },
  ]) ?? 'null';

const exactNumber = fc
  .tuple(fc.bigInt(), fc.nat({ max: 40 }))
  .map(([digits, scale]) => new ExactNumber(scale === 0 ? String(digits) : `${digits}.${'0'.repeat(scale)}1`));

const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary' }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    exactNumber,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonText', () => {
  it('writes what lossless-json writes, for any JSON value with exact numbers', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        expect(jsonText(value)).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes what JSON.stringify writes when there is no exact number', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonText(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('keeps every digit, escapes lone surrogates and honours toJSON', () => {
    const value = { n: new ExactNumber('12345678901234567890.10'), s: '\ud800"', d: new Date(0), f: () => 1 };
    expect(jsonText(value)).toBe('{"n":12345678901234567890.10,"s":"\\ud800\\"","d":"1970-01-01T00:00:00.000Z"}');
    expect(jsonText([undefined, Number.NaN])).toBe('[null,null]');
    expect(jsonText(undefined)).toBe('null');
  });
});
