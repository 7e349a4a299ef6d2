/** `nfkd-lower`: "Ｗｉｄｅ", "WIDE" and "wide" sort and route as one value; `none`: as written. */
export type Normalization = 'nfkd-lower' | 'none';

export const NORMALIZATIONS: readonly Normalization[] = ['nfkd-lower', 'none'];

export function normalize(value: string, normalization: Normalization): string {
  return normalization === 'none' ? value : value.toLowerCase().normalize('NFKD');
}
