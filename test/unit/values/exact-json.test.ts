import fc from 'fast-check';
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../src/core/exact-number';
import { parseExactJson } from '../../../src/core/exact-json';

const lossless = (text: string) => parse(text, null, (digits) => new ExactNumber(digits));

describe('parseExactJson', () => {
  it('reads what lossless-json reads, numbers as their digits (property)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(parseExactJson(text)).toEqual(lossless(text));
      }),
      { numRuns: 500 },
    );
    const spaced = ' {\n\t"n" : [ 12345678901234567890 , -1.50e+3 , 0.1 , -0 , 1E-7 ] , "s" : "a\\"\\\\\\u00e9" }\r\n';
    expect(parseExactJson(spaced)).toEqual(lossless(spaced));
    expect((parseExactJson('[9007199254740993]') as ExactNumber[])[0]!.text).toBe('9007199254740993');
  });

  it('keeps __proto__ an own key and the prototype untouched', () => {
    const value = parseExactJson('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what is not JSON, and a key given twice, naming the position', () => {
    for (const text of [
      '{"a":1,"a":2}',
      '{"a":1,"a":1}',
      '{',
      '[1,]',
      '01',
      '1.',
      '-',
      '"tab\there"',
      '"bad \\x escape"',
      '"unterminated',
      '[1] 2',
      'nul',
      '',
    ]) {
      expect(() => parseExactJson(text), text).toThrow(/at position \d+/);
    }
  });
});
