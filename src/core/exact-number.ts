/** DynamoDB numbers: decimal text, 38 significant digits at most, which must never pass through a double. */
export const MAX_SIGNIFICANT_DIGITS = 38;
/** Exponents of 0.d… × 10^exponent: 1E-130 to under 1E+126. */
export const MIN_EXPONENT = -129;
export const MAX_EXPONENT = 126;

/** As written by the client or read from DynamoDB. */
export class ExactNumber {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }

  /** JSON.stringify cannot emit raw digits; lossless serializers look for `text` instead. */
  toJSON(): string {
    return this.text;
  }
}

/**
 * value = (negative ? −1 : 1) × 0.digits × 10^exponent, `digits` free of leading and trailing
 * zeros, zero `digits: ''` and never negative: `12.5`, `12.50` and `1.25e1` give one Decimal.
 */
export interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

const NUMBER_TEXT = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Parses a decimal literal (JSON's grammar, plus leading zeros); undefined if it is not one. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = NUMBER_TEXT.exec(text);
  if (!match) return undefined;
  const [, minus, whole = '', fraction = '', exponentText = '0'] = match;
  const all = whole + fraction;
  const first = all.search(/[1-9]/);
  if (first < 0) return { negative: false, digits: '', exponent: 0 };
  const digits = all.slice(first).replace(/0+$/, '');
  // Exponents beyond any DynamoDB number are clamped, not parsed into Infinity.
  const written = Math.max(-1e6, Math.min(1e6, Number(exponentText)));
  return { negative: minus === '-', digits, exponent: whole.length - first + written };
}

/** Why DynamoDB would refuse this number (undefined: it stores it exactly). */
export function dynamoNumberProblem(decimal: Decimal): string | undefined {
  if (decimal.digits === '') return undefined;
  if (decimal.digits.length > MAX_SIGNIFICANT_DIGITS) {
    return `has ${decimal.digits.length} significant digits; DynamoDB keeps at most ${MAX_SIGNIFICANT_DIGITS}`;
  }
  if (decimal.exponent > MAX_EXPONENT) return 'is too large for DynamoDB (at most 9.99…E+125)';
  if (decimal.exponent < MIN_EXPONENT) return 'is too small for DynamoDB (at least 1E-130 in magnitude)';
  return undefined;
}

/** The shortest plain text (`12.5`); very large or small numbers use an exponent. */
export function decimalText(decimal: Decimal): string {
  const { negative, digits, exponent } = decimal;
  if (digits === '') return '0';
  const sign = negative ? '-' : '';
  if (exponent > 40 || exponent < -40) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}E${exponent - 1 >= 0 ? '+' : ''}${exponent - 1}`;
  }
  if (exponent <= 0) return `${sign}0.${'0'.repeat(-exponent)}${digits}`;
  if (exponent >= digits.length) return `${sign}${digits}${'0'.repeat(exponent - digits.length)}`;
  return `${sign}${digits.slice(0, exponent)}.${digits.slice(exponent)}`;
}

export function numberText(value: number | bigint | ExactNumber): string {
  return value instanceof ExactNumber ? value.text : String(value);
}

/** A key number (a primary key's, a group's) in its one canonical spelling (`1.50` is `1.5`), or why it is none. */
export function canonicalKeyNumber(value: unknown): { text: string } | { problem: string } {
  const decimal =
    value instanceof ExactNumber || (typeof value === 'number' && Number.isFinite(value))
      ? parseDecimal(String(value))
      : undefined;
  if (!decimal) return { problem: 'must be a number' };
  const problem = dynamoNumberProblem(decimal);
  return problem ? { problem } : { text: decimalText(decimal) };
}
