import { describe, expect, it } from 'vitest';
import {
  decimalText,
  dynamoNumberProblem,
  ExactNumber,
  numberText,
  parseDecimal,
} from '../../../src/core/exact-number.js';

describe('exact numbers', () => {
  it('gives equal values equal decimals, whatever their text', () => {
    expect(parseDecimal('12.5')).toEqual(parseDecimal('12.50'));
    expect(parseDecimal('12.5')).toEqual(parseDecimal('1.25e1'));
    expect(parseDecimal('0.0')).toEqual(parseDecimal('-0'));
    expect(parseDecimal('0.000120')).toEqual({ negative: false, digits: '12', exponent: -3 });
    expect(parseDecimal('-1200')).toEqual({ negative: true, digits: '12', exponent: 4 });
  });

  it('keeps every digit past 2^53', () => {
    expect(parseDecimal('9007199254740993')).not.toEqual(parseDecimal('9007199254740992'));
    expect(decimalText(parseDecimal('12345678901234567890') as never)).toBe('12345678901234567890');
    expect(decimalText(parseDecimal('-0.00012345678901234567890123456789012345678') as never)).toBe(
      '-0.00012345678901234567890123456789012345678',
    );
  });

  it('refuses what is not a number literal', () => {
    for (const text of ['', '1.', '.5', '+1', '1e', 'NaN', 'Infinity', '0x10', '1 ', '1_000']) {
      expect(parseDecimal(text), text).toBeUndefined();
    }
  });

  it("knows DynamoDB's limits", () => {
    const problem = (text: string) => dynamoNumberProblem(parseDecimal(text) as never);
    expect(problem('9.9999999999999999999999999999999999999E+125')).toBeUndefined();
    expect(problem('1E+126')).toMatch(/too large/);
    expect(problem('1E-130')).toBeUndefined();
    expect(problem('9.9E-131')).toMatch(/too small/);
    expect(problem('1234567890123456789012345678901234567.8')).toBeUndefined();
    expect(problem('1234567890123456789012345678901234567.89')).toMatch(/39 significant digits/);
    expect(problem('1e99999999999')).toMatch(/too large/);
    expect(problem('0e99999999999')).toBeUndefined();
  });

  it('writes plain text near one and exponents far from it', () => {
    const text = (t: string) => decimalText(parseDecimal(t) as never);
    expect(text('1.25e1')).toBe('12.5');
    expect(text('100')).toBe('100');
    expect(text('1E+125')).toBe('1E+125');
    expect(text('-1.5E-130')).toBe('-1.5E-130');
    expect(numberText(new ExactNumber('1.50'))).toBe('1.50');
    expect(numberText(7)).toBe('7');
  });
});
