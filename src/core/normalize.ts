/**
 * `nfkd-lower` is the seed's `unicodedata.normalize('NFKD', s.lower())`: "Ｗｉｄｅ", "WIDE" and
 * "wide" sort and route as one value. `none` is byte-compatible with the seed's `hash(s) % N`.
 */
export type Normalization = 'nfkd-lower' | 'none';

export const NORMALIZATIONS: readonly Normalization[] = ['nfkd-lower', 'none'];

export function normalize(value: string, normalization: Normalization): string {
  return normalization === 'none' ? value : value.toLowerCase().normalize('NFKD');
}
