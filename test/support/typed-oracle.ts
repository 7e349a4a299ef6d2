import { compareKeys } from '../../src/core/collation';

/**
 * An independent oracle for typed orders: numbers compared as exact integers scaled by
 * powers of ten, dates by nanoseconds from `Date.parse` plus the fraction digits,
 * strings by code point order after nfkd-lower. Shares nothing with the encoding.
 */
export interface OracleField {
  readonly type: 'string' | 'number' | 'date';
  readonly direction: 'asc' | 'desc';
}

export type Oracle = Map<string, { i: number; values: unknown[]; tiebreak: string }[]>;

export function compareTuples(fields: readonly OracleField[], a: readonly unknown[], b: readonly unknown[]): number {
  for (const [n, field] of fields.entries()) {
    const sign = compareValues(field.type, a[n], b[n]);
    if (sign !== 0) return field.direction === 'asc' ? sign : -sign;
  }
  return 0;
}

/** Whether `value` lies in the closed interval [low, high] of `type`'s values (a missing side is open). */
export function within(type: OracleField['type'], value: unknown, low?: unknown, high?: unknown): boolean {
  return (
    (low === undefined || compareValues(type, low, value) <= 0) &&
    (high === undefined || compareValues(type, value, high) <= 0)
  );
}

export function nfkdLower(value: unknown): string {
  return String(value).toLowerCase().normalize('NFKD');
}

function compareValues(type: OracleField['type'], a: unknown, b: unknown): number {
  if (type === 'string') return Math.sign(compareKeys(nfkdLower(a), nfkdLower(b)));
  const [x, y] = type === 'number' ? [scaled(String(a)), scaled(String(b))] : [nanos(a), nanos(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The number times 10^200, exactly (DynamoDB numbers have at most 38 digits and exponents over −130). */
function scaled(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a number: ${text}`);
  const [, minus, whole, fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) - fraction.length + 200;
  const digits = BigInt(whole! + fraction);
  const magnitude = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return minus ? -magnitude : magnitude;
}

function nanos(value: unknown): bigint {
  const text = String(value);
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  const ms = Date.parse(text.replace(/\.\d+/, ''));
  if (Number.isNaN(ms)) throw new Error(`not a date: ${text}`);
  return BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, '0'));
}
