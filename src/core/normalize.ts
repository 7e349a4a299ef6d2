/**
 * How an ordered value becomes the string that is sorted, hashed and bisected.
 *
 * `nfkd-lower` is the seed's `unicodedata.normalize('NFKD', s.lower())`: lower-case
 * first, then compatibility decomposition, so "Ｗｉｄｅ", "WIDE" and "wide" sort and
 * route as one value. `none` keeps the value as written (byte-compatible with the
 * seed's plain `hash(s) % N`).
 */
export type Normalization = 'nfkd-lower' | 'none';

export const NORMALIZATIONS: readonly Normalization[] = ['nfkd-lower', 'none'];

export function normalize(value: string, normalization: Normalization): string {
  return normalization === 'none' ? value : value.toLowerCase().normalize('NFKD');
}
