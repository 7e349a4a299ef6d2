import { keyCountsFromMap, type KeyCounts } from '../../src/boundaries/key-counts';
import { normalize } from '../../src/core/normalize';
import type { GeneratedKeys } from '../../devtools/zipf-keys';

/** Normalizes generated keys (nfkd-lower) and counts them, as the CLI does. */
export function countsOf(generated: GeneratedKeys): KeyCounts<readonly string[]> {
  const map = new Map<string, number>();
  generated.titles.forEach((title, i) => {
    const value = normalize(title, 'nfkd-lower');
    map.set(value, (map.get(value) ?? 0) + generated.counts[i]!);
  });
  return keyCountsFromMap(map);
}

/**
 * The independent oracle: Python's `bisect.bisect(boundaries, key) - 1` over UTF-8
 * bytes compared with Buffer.compare — not compareKeys, whose correctness is
 * what is being checked.
 */
export function oracleShard(boundaryBytes: readonly Buffer[], key: Buffer): number {
  let lo = 0;
  let hi = boundaryBytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(key, boundaryBytes[mid]!) < 0) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

const encoded = new WeakMap<KeyCounts<readonly string[]>, Buffer[]>();

/** The UTF-8 bytes of every value, encoded once per key set. */
export function valueBytes(keys: KeyCounts<readonly string[]>): Buffer[] {
  let bytes = encoded.get(keys);
  if (!bytes) {
    bytes = keys.values.map((v) => Buffer.from(v, 'utf8'));
    encoded.set(keys, bytes);
  }
  return bytes;
}

/** Loads by the oracle: bisect on bytes, a value equal to a repeated boundary spread over its run. */
export function oracleLoads(boundaries: readonly string[], keys: KeyCounts<readonly string[]>): Float64Array {
  const bytes = boundaries.map((b) => Buffer.from(b, 'utf8'));
  const values = valueBytes(keys);
  const loads = new Float64Array(boundaries.length);
  keys.values.forEach((value, i) => {
    const last = oracleShard(bytes, values[i]!);
    let first = last;
    while (first > 0 && boundaries[first - 1] === value && boundaries[last] === value) first--;
    for (let s = first; s <= last; s++) loads[s]! += keys.counts[i]! / (last - first + 1);
  });
  return loads;
}

export function maxOverMean(loads: ArrayLike<number>): number {
  let max = 0;
  let sum = 0;
  for (let i = 0; i < loads.length; i++) {
    max = Math.max(max, loads[i]!);
    sum += loads[i]!;
  }
  return max / (sum / loads.length);
}

export function meanLength(boundaries: readonly string[]): number {
  const rest = boundaries.slice(1);
  return rest.reduce((sum, b) => sum + [...b].length, 0) / rest.length;
}
