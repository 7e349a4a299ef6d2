/** What one page cost, measured from the caller's side. */
export interface PageSample {
  readonly returned: number;
  /** Items DynamoDB read (what it bills). */
  readonly itemsRead: number;
  readonly queries: number;
  /** Waves of queries the page waited for one after another. */
  readonly roundTrips: number;
  /** Shard queries sent a second time (hedged); router pages only. */
  readonly hedges?: number;
  /** Consumed read capacity, when the engine reports it. */
  readonly rcu: number | undefined;
  /** Wall time of the page, milliseconds. */
  readonly ms: number;
  /** CPU time (user + system) of this process during the page, milliseconds. */
  readonly cpuMs: number;
}

/**
 * Times `work`: wall clock and this process's CPU. Pages are read one at a time and
 * nothing else runs in this process meanwhile (DynamoDB Local is a java process, the
 * delaying proxy a Node process of its own), so the CPU is the router's alone.
 */
export async function measured<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}
