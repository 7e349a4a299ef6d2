import { ExactNumber } from '../core/exact-number.js';
import { parseExactJson } from '../core/exact-json.js';

/** JSON as the client sends and reads it; lossless, every number a double would change is an `ExactNumber`. */
export interface JsonCodec {
  parse(text: string): unknown;
  stringify(value: unknown): string;
}

export const plainJson: JsonCodec = { parse: (text) => JSON.parse(text), stringify: (value) => JSON.stringify(value) };

export const losslessJson: JsonCodec = {
  parse: (text) => numbersWhereExact(parseExactJson(text)),
  stringify: stringifyExact,
};

/** An ExactNumber whose digits a double keeps becomes a number; the rest stay exact. */
function numbersWhereExact(value: unknown): unknown {
  if (value instanceof ExactNumber) {
    const number = Number(value.text);
    return Number.isFinite(number) && canonical(String(number)) === canonical(value.text) ? number : value;
  }
  // Arrays too: their keys are their indexes.
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = numbersWhereExact(record[key]);
  }
  return value;
}

/** One text per number (`1.50` and `1.5`, `1e2` and `100`): sign, significant digits, the leading digit's place. */
export function canonical(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  const first = digits.search(/[1-9]/);
  if (first === -1) return '0';
  return `${sign}${digits.slice(first).replace(/0+$/, '')}e${whole.length - first + Number(exponent)}`;
}

/** JSON text with ExactNumbers and bigints written as their digits. */
function stringifyExact(value: unknown): string {
  const marker = `\u0000exact${Math.random().toString(36).slice(2)}:`;
  // The holder's own value: JSON.stringify hands the replacer what `toJSON` made of it.
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const original = this[key];
    if (original instanceof ExactNumber) return `${marker}${original.text}`;
    if (typeof original === 'bigint') return `${marker}${original.toString()}`;
    return v;
  });
  // The marker holds a NUL, which JSON.stringify escapes in any other string: only ours match.
  return text.replace(new RegExp(`"${marker.replace('\u0000', '\\\\u0000')}(-?[0-9.eE+-]+)"`, 'g'), '$1');
}
