/** How long, or how many times, one phase of a bench runs a request. */
export interface PhaseLength {
  /** Runs until this many seconds have passed (the requests begun finish)… */
  readonly seconds?: number;
  /** …or exactly this many requests. */
  readonly count?: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
}

/** Runs `one(i)` for i = 0, 1, … by `concurrency` loops for the phase's length; each request's latency, ms. */
export async function drive(length: PhaseLength, one: (i: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  const more = () =>
    length.count !== undefined ? next < length.count : performance.now() - started < (length.seconds ?? 1) * 1000;
  const loop = async () => {
    while (more()) {
      const i = next++;
      const begun = performance.now();
      await one(i);
      latencies.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: length.concurrency }, loop));
  return latencies;
}
