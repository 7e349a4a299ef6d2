/** The q-quantile (0..1) of `values` by linear interpolation; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** The middle value (the mean of the two middle ones for an even count); NaN when empty. */
export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** The arithmetic mean; NaN when empty. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Median, mean, p90 and p99 of one figure over pages. */
export interface Summary {
  readonly p50: number;
  readonly mean: number;
  readonly p90: number;
  readonly p99: number;
}

/** The `Summary` of one figure measured once per page. */
export function summarize(values: readonly number[]): Summary {
  return { p50: median(values), mean: mean(values), p90: quantile(values, 0.9), p99: quantile(values, 0.99) };
}

/**
 * A bootstrap interval of `statistic` over two samples (a ratio of their p99s, say): the
 * statistic of `rounds` resamplings of both, with replacement, and the quantiles of those that
 * hold `coverage` of them in the middle. How far one run's figure may move on the same code:
 * a p99 of 500 pages is their fifth slowest, and any five pages are a small sample.
 */
export function bootstrapInterval(
  first: readonly number[],
  second: readonly number[],
  statistic: (first: readonly number[], second: readonly number[]) => number,
  random: () => number,
  { rounds = 1000, coverage = 0.9 } = {},
): [number, number] {
  const resample = (values: readonly number[]) =>
    Array.from({ length: values.length }, () => values[Math.floor(random() * values.length)]!);
  const figures = Array.from({ length: rounds }, () => statistic(resample(first), resample(second)));
  return [quantile(figures, (1 - coverage) / 2), quantile(figures, (1 + coverage) / 2)];
}
