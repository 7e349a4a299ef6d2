import { malformedRecord } from './errors';
import { type Decimal, MIN_EXPONENT } from './exact-number';

/**
 * The order-preserving text encoding of typed values (each type's form: docs/architecture.md, "Typed and
 * compound order"): encoded fields compare by `compareKeys` (DynamoDB's UTF-8 byte order) as the values do.
 * Every field's encoding is prefix-free, so concatenation gives the tuple's order and a descending field is
 * its ascending encoding mirrored; the text is well-formed UTF-16 and never holds U+0000 (the index separator).
 */
export type OrderType = 'string' | 'number' | 'date';
export type OrderDirection = 'asc' | 'desc';

/** A normalized string, or a decimal (numbers; dates in seconds). */
export type EncodableValue = string | Decimal;

const NEGATIVE = 'M';
const ZERO = 'O';
const POSITIVE = 'P';
const POSITIVE_END = '!';
const NEGATIVE_END = '~';
/** Exponents are stored as e − MIN_EXPONENT: 0…255, three digits. */
const EXPONENT_SPAN = 255;
const MIRROR = 0x9f;

const STRING_END = '\u0001';
const STRING_ESCAPE = '\u0002';
const DESC_STRING_END = 0x100;

export function encodeDecimal(decimal: Decimal): string {
  if (decimal.digits === '') return ZERO;
  const offset = decimal.exponent - MIN_EXPONENT;
  if (!decimal.negative) return POSITIVE + threeDigits(offset) + decimal.digits + POSITIVE_END;
  let complement = '';
  for (let i = 0; i < decimal.digits.length; i++) complement += COMPLEMENT[decimal.digits.charCodeAt(i)]!;
  return NEGATIVE + threeDigits(EXPONENT_SPAN - offset) + complement + NEGATIVE_END;
}

/** `encodeField('number', direction, …)` of a safe integer. */
export function encodeSafeInteger(n: number, direction: OrderDirection): string {
  if (n < 0 || n >= SMALL_INTEGERS) return encodeField('number', direction, integerDecimal(n));
  // Years, counts and ranks recur on every write: their encodings are made once.
  const memo = direction === 'asc' ? SMALL_ASCENDING : SMALL_DESCENDING;
  memo[n] ??= encodeField('number', direction, integerDecimal(n));
  return memo[n];
}

const SMALL_INTEGERS = 1 << 14;
// Filled up front with `undefined`: an array written only at scattered indexes would turn
// into a dictionary, and each lookup into a hash probe.
const SMALL_ASCENDING: (string | undefined)[] = new Array(SMALL_INTEGERS).fill(undefined);
const SMALL_DESCENDING: (string | undefined)[] = new Array(SMALL_INTEGERS).fill(undefined);

export function integerDecimal(n: number): Decimal {
  if (n === 0) return { negative: false, digits: '', exponent: 0 };
  const text = String(n < 0 ? -n : n);
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end--;
  return { negative: n < 0, digits: text.slice(0, end), exponent: text.length };
}

/** `value` must not hold U+0000. `complete: false` leaves the end mark off, as `encodeStringDescending`. */
export function encodeString(value: string, complete = true): string {
  const end = complete ? STRING_END : '';
  if (!value.includes(STRING_END) && !value.includes(STRING_ESCAPE)) return value + end;
  // The escape first, so the escapes the end mark gets are not escaped again.
  const escaped = value.replaceAll(STRING_ESCAPE, STRING_ESCAPE + STRING_ESCAPE);
  return escaped.replaceAll(STRING_END, STRING_ESCAPE + STRING_END) + end;
}

/** `complete: false` leaves the end mark off: what every value starting with `value` begins with. */
export function encodeStringDescending(value: string, complete = true): string {
  const bytes = new TextEncoder().encode(value);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(0x100 - bytes[i]!);
  return complete ? out + String.fromCharCode(DESC_STRING_END) : out;
}

/** Mirrors an ascending number or date encoding into the descending one (and back). */
export function mirror(encoded: string): string {
  let out = '';
  for (let i = 0; i < encoded.length; i++) out += MIRRORED[encoded.charCodeAt(i)]!;
  return out;
}

/** c → 0x9F − c for the ASCII the number encoding uses, looked up (routing runs this per write). */
const MIRRORED = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(MIRROR - c));
const COMPLEMENT = Array.from({ length: 0x3a }, (_, c) => (c >= 0x30 ? String(9 - (c - 0x30)) : ''));

export function encodeField(type: OrderType, direction: OrderDirection, value: EncodableValue): string {
  if (type === 'string') {
    return direction === 'asc' ? encodeString(value as string) : encodeStringDescending(value as string);
  }
  const ascending = encodeDecimal(value as Decimal);
  return direction === 'asc' ? ascending : mirror(ascending);
}

/** The field encoded at `start` and where the next one starts; throws a malformed record when there is none. */
export function decodeField(
  type: OrderType,
  direction: OrderDirection,
  encoded: string,
  start: number,
): { value: EncodableValue; end: number } {
  if (type === 'string') {
    return direction === 'asc' ? decodeString(encoded, start) : decodeStringDescending(encoded, start);
  }
  return decodeDecimal(encoded, start, direction === 'desc');
}

function decodeString(encoded: string, start: number): { value: string; end: number } {
  let value = '';
  for (let i = start; i < encoded.length; i++) {
    const char = encoded[i]!;
    if (char === STRING_END) return { value, end: i + 1 };
    if (char === STRING_ESCAPE) {
      const escaped = encoded[++i];
      if (escaped !== STRING_END && escaped !== STRING_ESCAPE) break;
      value += escaped;
    } else value += char;
  }
  throw malformedRecord('not an encoded string field: no end mark');
}

/** `ignoreBOM`: a value may begin with U+FEFF, which is no byte-order mark here; `fatal`: no UTF-8, no value. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeStringDescending(encoded: string, start: number): { value: string; end: number } {
  const bytes: number[] = [];
  for (let i = start; i < encoded.length; i++) {
    const unit = encoded.charCodeAt(i);
    if (unit === DESC_STRING_END) return { value: utf8.decode(new Uint8Array(bytes)), end: i + 1 };
    if (unit < 1 || unit > 0xff) break;
    bytes.push(0x100 - unit);
  }
  throw malformedRecord('not an encoded descending string field');
}

function decodeDecimal(encoded: string, start: number, mirrored: boolean): { value: Decimal; end: number } {
  const at = (i: number): string => {
    const char = encoded[i];
    if (char === undefined) throw malformedRecord('not an encoded number field: it ends early');
    return mirrored ? String.fromCharCode(MIRROR - char.charCodeAt(0)) : char;
  };
  const sign = at(start);
  if (sign === ZERO) return { value: { negative: false, digits: '', exponent: 0 }, end: start + 1 };
  if (sign !== NEGATIVE && sign !== POSITIVE) throw malformedRecord(`not an encoded number field: class ${sign}`);
  const negative = sign === NEGATIVE;
  const stored = Number(at(start + 1) + at(start + 2) + at(start + 3));
  const end = negative ? NEGATIVE_END : POSITIVE_END;
  let digits = '';
  let i = start + 4;
  for (let char = at(i); char !== end; char = at(++i)) {
    if (char < '0' || char > '9') throw malformedRecord(`not an encoded number field: digit ${char}`);
    digits += negative ? String(9 - Number(char)) : char;
  }
  const offset = negative ? EXPONENT_SPAN - stored : stored;
  return { value: { negative, digits, exponent: offset + MIN_EXPONENT }, end: i + 1 };
}

function threeDigits(n: number): string {
  return n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n);
}
