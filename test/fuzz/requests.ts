import fc from 'fast-check';
import { rawText } from '../support/arbitraries';

/* Request pieces shared by the garbage fuzz and the engine-parity differential test. */

/** Percent-encodes a string however it is formed, including lone surrogates (as their raw UTF-8-ish bytes). */
export function pct(value: string): string {
  let out = '';
  const hex = (byte: number) => byte.toString(16).toUpperCase();
  for (const ch of value) {
    const unit = ch.codePointAt(0)!;
    if (unit >= 0xd800 && unit <= 0xdfff) out += `%ED%${hex(0xa0 | ((unit >> 6) & 0x1f))}%${hex(0x80 | (unit & 0x3f))}`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A path segment where a collection name goes: real names, empty, broken escapes, raw text. */
export const segment = fc.oneof(
  fc.constantFrom(
    'albums',
    'albums-hash',
    'albums-random',
    'nope',
    '',
    '%',
    '%zz',
    '%00',
    '..',
    '.',
    '%2F',
    '%E2%82',
    'a%ZZb',
  ),
  rawText(12).map(pct),
);
/** A query parameter value, percent-encoded: edge numbers, empty, broken escapes, long text. */
export const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '1000',
    '1001',
    '-1',
    '1e3',
    'asc',
    'desc',
    'ASC',
    '',
    '%',
    '%zz',
    '%ED%A0%80',
    'a.b',
    'eyJ2IjoxfQ.AAAA',
  ),
  fc.integer().map(String),
  rawText(40).map(pct),
  fc.string({ maxLength: 9000 }).map(encodeURIComponent),
);
