import { compareKeys, type SortedView } from '../core/collation';

/**
 * A multiset of normalized keys as its distinct values in code point order, each
 * with how many items carry it. Five million titles are ~3 million distinct
 * values, so this is what the cut works on instead of every duplicate.
 */
/**
 * Distinct values by index. A plain array, or a view that decodes a value only when
 * asked (the exact reader keeps millions of keys as bytes and the cut reads a few
 * hundred of them).
 */
export type SortedValues = SortedView;

export interface KeyCounts<Values extends SortedValues = SortedValues> {
  /** Distinct values, strictly increasing in code point order. */
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
 * Sorts the distinct values of a value → count map in code point order.
 *
 * The sort runs in chunks and then merges them pairwise, which costs about the same
 * comparisons as one sort but lets `progress` report each step. Deterministic: the
 * order is total (distinct values never compare equal), whatever the map's order.
 */
export function keyCountsFromMap(
  map: ReadonlyMap<string, number>,
  progress?: SortProgress,
): KeyCounts<readonly string[]> {
  const keys = Array.from(map.keys());
  const sorted = sortCodePoint(keys, progress);
  const counts = new Uint32Array(sorted.length);
  let total = 0;
  for (let i = 0; i < sorted.length; i++) {
    const count = map.get(sorted[i]!)!;
    counts[i] = count;
    total += count;
  }
  return { values: sorted, counts, total };
}

/** Builds key counts from already normalized keys (tests, small inputs). */
export function keyCountsOf(keys: Iterable<string>): KeyCounts<readonly string[]> {
  const map = new Map<string, number>();
  for (const key of keys) map.set(key, (map.get(key) ?? 0) + 1);
  return keyCountsFromMap(map);
}

/** Sorts distinct strings in code point order, reporting (done, total) steps. */
export function sortCodePoint(keys: string[], progress?: SortProgress): string[] {
  let runs: string[][] = [];
  for (let start = 0; start < keys.length; start += CHUNK) {
    runs.push(keys.slice(start, start + CHUNK));
  }
  const merges = Math.max(0, runs.length - 1);
  const steps = runs.length + merges;
  let done = 0;
  for (const run of runs) {
    run.sort(compareKeys);
    progress?.(++done, steps);
  }
  while (runs.length > 1) {
    const next: string[][] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const right = runs[i + 1];
      if (!right) {
        next.push(runs[i]!);
        continue;
      }
      next.push(mergeRuns(runs[i]!, right));
      progress?.(++done, steps);
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
