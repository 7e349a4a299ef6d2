import { type Decimal, decimalText, dynamoNumberProblem, ExactNumber, parseDecimal } from './exact-number';
import { normalize, type Normalization } from './normalize';
import { type EncodableValue, integerDecimal, type OrderType } from './order-encoding';

/** A typed ordered value read from an item, a query or a config, or why it is none (the caller names the field). */
export type ReadValue = { readonly value: EncodableValue } | { readonly problem: string };

/** Nanoseconds: more fraction digits are refused, not rounded. */
export const DATE_FRACTION_DIGITS = 9;

/** A JSON number, an ExactNumber, a bigint, or (`textAllowed`: queries, configs) decimal text. */
export function readNumber(input: unknown, textAllowed: boolean): ReadValue {
  // The common case (counts, years, ids) skips the text round trip: a safe integer is exact and storable.
  if (typeof input === 'number' && Number.isSafeInteger(input)) return { value: integerDecimal(input) };
  let text: string | undefined;
  if (input instanceof ExactNumber) text = input.text;
  else if (typeof input === 'number') text = Number.isFinite(input) ? String(input) : undefined;
  else if (typeof input === 'bigint') text = String(input);
  else if (typeof input === 'string' && textAllowed) text = input;
  if (text === undefined) return { problem: textAllowed ? 'must be a number' : 'must be a JSON number' };
  const decimal = parseDecimal(text);
  if (!decimal) return { problem: `must be a number, not ${JSON.stringify(text)}` };
  const problem = dynamoNumberProblem(decimal);
  return problem ? { problem: `${text} ${problem}` } : { value: decimal };
}

export function readString(input: unknown, normalization: Normalization): ReadValue {
  if (typeof input !== 'string') return { problem: 'must be a string' };
  if (!input.isWellFormed()) return { problem: 'holds an unpaired surrogate, which has no UTF-8 form' };
  const normalized = normalize(input, normalization);
  if (normalized.includes('\u0000'))
    return { problem: 'contains U+0000, which shardline reserves as its index separator' };
  return { value: normalized };
}

// YYYY-MM-DD, optionally Thh:mm[:ss[.fraction]] with Z or ±hh:mm (a time without an offset is no instant).
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2})))?$/;

/** An ISO 8601 date (midnight UTC) or date-time with an offset as exact decimal seconds since the epoch. */
export function readDate(input: unknown): ReadValue {
  if (typeof input !== 'string') return { problem: 'must be an ISO 8601 date or date-time string' };
  const match = ISO_DATE.exec(input);
  const hasTime = match?.[4] !== undefined;
  if (!match || (hasTime && match[8] === undefined && match[9] === undefined)) {
    return {
      problem:
        'must be an ISO 8601 date (2026-01-31) or date-time with an offset (2026-01-31T09:30:00Z), ' +
        `not ${JSON.stringify(input)}`,
    };
  }
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 10, 11].map((i) =>
    Number(match[i] ?? 0),
  ) as [number, number, number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const monthDays = month === 2 && leap ? 29 : (MONTH_DAYS[month - 1] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > monthDays) return { problem: `is not a calendar date: ${input}` };
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return { problem: `is not a valid time: ${input}` };
  }
  if (fraction.length > DATE_FRACTION_DIGITS) {
    return { problem: `has ${fraction.length} fraction digits; dates keep at most ${DATE_FRACTION_DIGITS} (ns)` };
  }
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, keeps years 0–99 as written
  at.setUTCHours(hour, minute, second, 0);
  const offset = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60;
  const epochSeconds = at.getTime() / 1000 - offset;
  if (epochSeconds < FIRST_SECOND || epochSeconds > LAST_SECOND) return { problem: `is outside years 0000–9999 UTC` };
  const nanos = BigInt(epochSeconds) * 1_000_000_000n + BigInt(fraction.padEnd(DATE_FRACTION_DIGITS, '0'));
  return { value: parseDecimal(`${nanos}e-${DATE_FRACTION_DIGITS}`)! };
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Instants are kept to the years four digits write, in UTC. */
const FIRST_SECOND = new Date(0).setUTCFullYear(0, 0, 1) / 1000;
const LAST_SECOND = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

export function readTyped(type: OrderType, normalization: Normalization, input: unknown, textAllowed: boolean) {
  if (type === 'string') return readString(input, normalization);
  if (type === 'number') return readNumber(input, textAllowed);
  return readDate(input);
}

/** Strings as they are, numbers as a JSON number when that is exact (else decimal text), dates as UTC ISO 8601. */
export function presentTyped(type: OrderType, value: EncodableValue): string | number {
  if (type === 'string') return value as string;
  const decimal = value as Decimal;
  if (type === 'number') {
    const text = decimalText(decimal);
    const asNumber = Number(text);
    const same = parseDecimal(String(asNumber));
    return same && sameDecimal(same, decimal) ? asNumber : text;
  }
  return isoInstant(decimal);
}

function sameDecimal(a: Decimal, b: Decimal): boolean {
  return a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;
}

/** Epoch seconds (at most nine fraction digits) as `YYYY-MM-DDThh:mm:ss[.fraction]Z`. */
function isoInstant(seconds: Decimal): string {
  const shift = seconds.exponent - seconds.digits.length + DATE_FRACTION_DIGITS;
  const magnitude = seconds.digits === '' ? 0n : BigInt(seconds.digits) * 10n ** BigInt(Math.max(0, shift));
  const nanos = seconds.negative ? -magnitude : magnitude;
  const billion = 1_000_000_000n;
  const whole = nanos >= 0n ? nanos / billion : -((-nanos + billion - 1n) / billion);
  const fraction = String(nanos - whole * billion)
    .padStart(DATE_FRACTION_DIGITS, '0')
    .replace(/0+$/, '');
  const base = new Date(Number(whole) * 1000).toISOString().slice(0, 19);
  return `${base}${fraction ? `.${fraction}` : ''}Z`;
}
