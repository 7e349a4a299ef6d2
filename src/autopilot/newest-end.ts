import { bisectLeft, compareKeys } from '../core/collation';
import type { FleetLoad, WriteSample } from '../load/fleet-load';
import { PARTITION_WCU } from '../load/load-record';

/** A stream's least run of one minute's samples in one gap: spread writes put 8 in one gap about once in 256 gaps. */
const MIN_RUN = 8;

/** The largest stream of writes on one shard that kept landing past every earlier write around it. */
export interface NewestEndStream {
  readonly shard: number;
  /** Its share of the shard's writes, over the window's minutes that had earlier writes to compare. */
  readonly share: number;
  /** Its load in a partition's limits (its share of the shard's write units over the window). */
  readonly partitionShare: number;
}

/** Writes at the newest end of a range (docs/autopilot.md, time-ordered keys): the stream that takes the most. */
export function newestEndStream(window: FleetLoad, minutes: readonly FleetLoad[]): NewestEndStream | undefined {
  let found: NewestEndStream | undefined;
  window.shards.forEach((shard, index) => {
    const share = streamShare(minutes.map((minute) => minute.writeSamples[index] ?? []));
    if (share === 0) return;
    const partitionShare = (share * shard.writeUnitsPerSecond) / PARTITION_WCU;
    if (!found || partitionShare > found.partitionShare) found = { shard: index, share, partitionShare };
  });
  return found;
}

/** Of one shard's sampled write units after its first sampled minute, the share in each minute's largest run. */
export function streamShare(minutes: readonly (readonly WriteSample[])[]): number {
  let earlier: string[] = [];
  let inRuns = 0;
  let compared = 0;
  for (const samples of minutes) {
    if (samples.length === 0) continue;
    if (earlier.length > 0) {
      compared += samples.reduce((sum, sample) => sum + sample.units, 0);
      inRuns += largestRun(earlier, samples);
    }
    earlier = [...new Set([...earlier, ...samples.map((sample) => sample.value)])].sort(compareKeys);
  }
  return compared > 0 ? inRuns / compared : 0;
}

/**
 * The units of the largest run of `samples` in one gap of the sorted distinct `earlier` values, at least
 * MIN_RUN long, longer where a sparse past leaves wide gaps that spread writes fill by chance.
 */
function largestRun(earlier: readonly string[], samples: readonly WriteSample[]): number {
  const needed = Math.max(MIN_RUN, Math.ceil((MIN_RUN * samples.length) / earlier.length));
  const gaps = new Map<number, { count: number; units: number }>();
  for (const sample of samples) {
    const gap = bisectLeft(earlier, sample.value);
    if (earlier[gap] === sample.value) continue; // a value written before: no newer than it
    const run = gaps.get(gap) ?? { count: 0, units: 0 };
    gaps.set(gap, { count: run.count + 1, units: run.units + sample.units });
  }
  return Math.max(0, ...[...gaps.values()].filter((run) => run.count >= needed).map((run) => run.units));
}
