import { normalize, type Normalization } from '../core/normalize';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

/**
 * `normalize(value, normalization)`, faster on ASCII: no ASCII character has a compatibility
 * decomposition, so NFKD(lower(s)) is lower(s) there, and the ICU round trip is skipped.
 */
export function normalizeKey(value: string, normalization: Normalization): string {
  if (normalization === 'nfkd-lower' && ASCII.test(value)) return value.toLowerCase();
  return normalize(value, normalization);
}
