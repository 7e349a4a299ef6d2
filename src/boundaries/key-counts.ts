import { compareKeys, type SortedView } from '../core/collation';

/** A multiset of normalized keys as its distinct values, each with how many items carry it. */
export interface KeyCounts<Values extends SortedView = SortedView> {
  /** Distinct values, strictly increasing in code point order: an array, or a view decoding a value when read. */
  readonly values: Values;
  /** `counts[i]` items carry `values[i]`; every count is >= 1. */
  readonly counts: Uint32Array;
  /** Sum of the counts. */
  readonly total: number;
}

/** Called with (done, total) steps while sorting, for a progress bar. */
export type SortProgress = (done: number, total: number) => void;

/** How many values one sort step handles: small enough for a lively progress bar. */
const CHUNK = 1 << 18;

/**
 * The values of a value → count map sorted in code point order: in chunks merged pairwise,
 * about the comparisons of one sort but with steps for `progress`. Deterministic: distinct
 * values never compare equal, so the order does not depend on the map's.
 */
export function keyCountsFromMap(
  map: ReadonlyMap<string, number>,
  progress?: SortProgress,
): KeyCounts<readonly string[]> {
  const sorted = sortCodePoint(Array.from(map.keys()), progress);
  const counts = Uint32Array.from(sorted, (key) => map.get(key)!);
  return { values: sorted, counts, total: counts.reduce((sum, count) => sum + count, 0) };
}

/** Builds key counts from already normalized keys (tests, small inputs). */
export function keyCountsOf(keys: Iterable<string>): KeyCounts<readonly string[]> {
  const map = new Map<string, number>();
  for (const key of keys) map.set(key, (map.get(key) ?? 0) + 1);
  return keyCountsFromMap(map);
}

/** Sorts distinct strings in code point order, reporting (done, total) steps. */
function sortCodePoint(keys: string[], progress?: SortProgress): string[] {
  let runs = Array.from({ length: Math.ceil(keys.length / CHUNK) }, (_, i) => keys.slice(i * CHUNK, (i + 1) * CHUNK));
  const steps = runs.length + Math.max(0, runs.length - 1);
  let done = 0;
  for (const run of runs) {
    run.sort(compareKeys);
    progress?.(++done, steps);
  }
  while (runs.length > 1) {
    const next: string[][] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const right = runs[i + 1];
      next.push(right ? mergeRuns(runs[i]!, right) : runs[i]!);
      if (right) progress?.(++done, steps);
    }
    runs = next;
  }
  if (steps === 0) progress?.(0, 0);
  return runs[0] ?? [];
}

function mergeRuns(left: string[], right: string[]): string[] {
  const out = new Array<string>(left.length + right.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < left.length && j < right.length) {
    out[k++] = compareKeys(left[i]!, right[j]!) <= 0 ? left[i++]! : right[j++]!;
  }
  while (i < left.length) out[k++] = left[i++]!;
  while (j < right.length) out[k++] = right[j++]!;
  return out;
}
