import type { AutopilotConfig } from '../core/collection';
import type { StrategyKind } from '../core/strategies';
import type { FleetLoad } from '../load/fleet-load';
import type { GroupChange } from './decide-groups';
import { type NewestEndStream, newestEndStream } from './newest-end';
import { gainBar } from './rising-bar';

/** What one autopilot step knows: the map in force, the window's load, the reshard's state. */
export interface StepInputs {
  readonly strategy: StrategyKind;
  readonly shardCount: number;
  /** The whole window merged, and each of its minutes alone (oldest first). */
  readonly window: FleetLoad;
  readonly minutes: readonly FleetLoad[];
  readonly resharding: boolean;
  /** When the last reshard of the collection ended (epoch ms), if one did. */
  readonly lastReshardAt: number | undefined;
  readonly now: number;
  /** The fleet's minute (SHARDLINE_LOAD_MINUTE_MS): windows and the cooldown count these. */
  readonly minuteMs: number;
  /** The autopilot's reshards in a row, the map never calm a window between them (rising-bar.ts). */
  readonly streak: number;
}

/** The map to move to: range re-cut into `shards` ranges by load, any other kind at `shards` shards. */
export interface Target {
  readonly kind: StrategyKind;
  readonly shards: number;
}

export interface Decision {
  /** `resize`: a grouped collection's groups resized (decide-groups.ts); `reshard`: the collection's map. */
  readonly action: 'none' | 'reshard' | 'resize';
  /** One line an operator reads: why. */
  readonly reason: string;
  readonly target?: Target;
  /** Largest ÷ mean load now and, for a reshard, as predicted after it. */
  readonly imbalance: number | null;
  readonly predictedImbalance?: number;
  /** The largest shard's share of a partition's limits now, and predicted. */
  readonly largestShare: number;
  readonly predictedLargestShare?: number;
  /** The predicted gain a reshard needed at this step: `minGain`, raised after reshards in a row. */
  readonly bar: number;
  /** A reshard the plain `minGain` allows was held back by the raised bar: the load is still moving. */
  readonly heldBack?: boolean;
  /** A whole window of the map's own load, and nothing to do: the end of a streak of reshards. */
  readonly calm?: boolean;
  /** Range only: a shard whose writes keep landing at the newest end of its range, where that bounds a re-cut. */
  readonly newestEnd?: { readonly shard: number; readonly share: number };
  /** A grouped collection's: the groups it resizes or resumes, and hot ones it holds back, each with why. */
  readonly groups?: readonly GroupChange[];
}

/** A shard far below its share this long (a whole window) lets the collection shrink. */
const IDLE_FRACTION = 1 / 8;
const GROUP_IT = 'group the collection by its entity field ("group") and let hot groups grow';
/** Imbalance within this many standard deviations of chance (Poisson counts) is noise, not a hotspot. */
const NOISE_SIGMAS = 3;

/**
 * One autopilot step's choice for a collection's map (docs/autopilot.md, steps 2 to 5 and the rising
 * bar), pure: inputs in, decision out. Load that only chance makes uneven is left alone, so steady
 * load never reshards twice.
 */
export function decide(inputs: StepInputs, config: AutopilotConfig): Decision {
  const { window, minuteMs } = inputs;
  const shares = window.shards.map((shard) => shard.partitionShare);
  const largestShare = Math.max(0, ...shares);
  const bar = gainBar(config.minGain, inputs.streak);
  const base = { imbalance: window.imbalance, largestShare, bar };
  const none = (reason: string): Decision => ({ action: 'none', reason, ...base });
  const gainOf = (largest: number) => (largestShare > 0 ? 1 - largest / largestShare : 0);
  const predict = (predictedLargestShare: number, newMean: number) => ({
    predictedLargestShare,
    predictedImbalance: newMean > 0 ? predictedLargestShare / newMean : 1,
  });
  const reshard = (reason: string, target: Target, predictedLargest: number, newMean: number): Decision => {
    const predicted = predict(predictedLargest, newMean);
    const gain = gainOf(predictedLargest);
    if (inputs.streak > 0 && gain < bar) {
      const why =
        `held back: after ${inputs.streak} reshard(s) in a row a reshard needs a predicted gain of ` +
        `${percent(bar)}, this one ${percent(gain)} (${reason})`;
      return { ...none(why), ...predicted, heldBack: true };
    }
    return { action: 'reshard', reason, target, ...base, ...predicted };
  };
  if (inputs.resharding) return none('a reshard is running');
  const { lastReshardAt } = inputs;
  if (lastReshardAt !== undefined && inputs.now - lastReshardAt < config.cooldownMinutes * minuteMs) {
    return none(`cooling down after the last reshard (${config.cooldownMinutes} min)`);
  }
  // The window's first minute must have begun under the map in force: records of another map are not mixed in.
  const windowStart = inputs.now - (inputs.now % minuteMs) - config.windowMinutes * minuteMs;
  if (lastReshardAt !== undefined && windowStart < lastReshardAt) {
    return none(`not a whole window of load under the new map yet (${config.windowMinutes} min)`);
  }
  if (inputs.minutes.length < config.windowMinutes) {
    return none(`not a whole window of load records yet (${inputs.minutes.length} of ${config.windowMinutes} min)`);
  }
  // No router reported (records off, or nothing ran): not "idle", unknown.
  if (window.records === 0) {
    return none('no load records in the window: do the routers run with SHARDLINE_LOAD_RECORDS on?');
  }
  const mean = shares.reduce((a, b) => a + b, 0) / Math.max(1, shares.length);
  const throttled = window.shards.some((shard) => shard.throttles > 0);
  const overEveryMinute = window.shards.some((_, i) =>
    inputs.minutes.every((minute) => (minute.shards[i]?.partitionShare ?? 0) > config.maxPartitionShare),
  );
  const hotKey = hottestKeyShare(window);

  if (inputs.strategy === 'range') {
    const relief = overEveryMinute || throttled;
    const why = throttled
      ? 'DynamoDB throttled a shard'
      : `a shard stayed over ${config.maxPartitionShare} of a partition`;
    // Load-cut boundaries: each shard near the mean; a key hotter than the mean spread over a run.
    const spread = Math.max(mean, hotKey / Math.max(1, Math.ceil(hotKey / Math.max(mean, 1e-12))));
    // Writes that keep landing at the newest end of a range stay on one shard whatever the cut.
    const stream = newestEndStream(window, inputs.minutes);
    const pinned = stream && stream.partitionShare > spread ? stream : undefined;
    const predictedLargest = pinned?.partitionShare ?? spread;
    const gain = gainOf(predictedLargest);
    // Relief takes any gain; otherwise a gain of minGain that chance does not explain.
    const worth = (g: number) => (relief && g > 0) || (g >= config.minGain && !chanceExplains(window));
    if (pinned && worth(gainOf(spread)) && gain < config.minGain) {
      // What the bare load promised, a time-ordered stream takes back: say so, and what helps.
      const reason =
        `${relief ? `${why}, but ` : ''}writes land at the newest end of the range (time-ordered keys: ` +
        `${streamNote(pinned)}); no re-cut spreads them: ${GROUP_IT}`;
      // A pinned stream's share is above the mean, so the mean is above 0 here.
      return { ...none(reason), ...predict(predictedLargest, mean), newestEnd: newestEndOf(pinned) };
    }
    if (worth(gain)) {
      const action = relief
        ? `${why}: re-cut by load`
        : `re-cut by load: the largest shard's load down ${percent(gain)}`;
      const reason = pinned ? `${action} (${streamNote(pinned)}: they stay on one shard)` : action;
      const decision = reshard(reason, { kind: 'range', shards: inputs.shardCount }, predictedLargest, mean);
      return pinned ? { ...decision, newestEnd: newestEndOf(pinned) } : decision;
    }
  } else if (overEveryMinute || throttled) {
    // More shards spread the load, but never a single key's: hash keeps a value on one shard.
    const shards = Math.min(
      config.maxShards,
      Math.max(inputs.shardCount * 2, Math.ceil((inputs.shardCount * largestShare) / (config.maxPartitionShare / 2))),
    );
    const newMean = (mean * inputs.shardCount) / shards;
    const predictedLargest = inputs.strategy === 'hash' ? Math.max(newMean, hotKey) : newMean;
    if (shards > inputs.shardCount && gainOf(predictedLargest) >= config.minGain) {
      const reason = `a shard stayed over ${config.maxPartitionShare} of a partition: ${shards} shards`;
      return reshard(reason, { kind: inputs.strategy, shards }, predictedLargest, newMean);
    }
    return none(
      inputs.strategy === 'hash' && hotKey > 0 && shards > inputs.shardCount
        ? 'one key is hotter than more hash shards can spread (a range strategy spreads it over several)'
        : `at the most shards allowed (${config.maxShards})`,
    );
  }
  const idle = inputs.minutes.every((minute) =>
    minute.shards.every((s) => s.partitionShare < config.maxPartitionShare * IDLE_FRACTION),
  );
  if (idle && inputs.strategy !== 'range' && inputs.shardCount > config.minShards) {
    // Fewer shards gain nothing in load (the bar is not theirs): they save queries on a quiet collection.
    const shards = Math.max(config.minShards, Math.floor(inputs.shardCount / 2));
    const target = { kind: inputs.strategy, shards };
    const predicted = { predictedLargestShare: (mean * inputs.shardCount) / shards, predictedImbalance: 1 };
    return { action: 'reshard', reason: `idle a whole window: ${shards} shards`, target, ...base, ...predicted };
  }
  return { ...none('balanced enough'), calm: true };
}

/** The hottest written key's share of a partition (its writes at the shard's units per write). */
function hottestKeyShare(window: FleetLoad): number {
  const top = window.hotWrites.keys[0];
  if (!top || window.hotWrites.total === 0) return 0;
  const units = window.shards.reduce((sum, s) => sum + s.writeUnitsPerSecond, 0);
  const writes = window.shards.reduce((sum, s) => sum + s.writesPerSecond, 0);
  const unitsPerWrite = writes > 0 ? units / writes : 1;
  const keyPerSecond = (top.count - top.error) / window.windowSeconds;
  return (keyPerSecond * unitsPerWrite) / 1000;
}

/** Whether counts this small make the largest shard's excess a matter of chance (Poisson). */
function chanceExplains(window: FleetLoad): boolean {
  const events = window.shards.map((s) => (s.writesPerSecond + s.queriesPerSecond) * window.windowSeconds);
  const mean = events.reduce((a, b) => a + b, 0) / Math.max(1, events.length);
  const largest = Math.max(0, ...events);
  return largest - mean <= NOISE_SIGMAS * Math.sqrt(Math.max(mean, 1));
}

function streamNote(stream: NewestEndStream): string {
  return `${percent(stream.share)} of shard ${stream.shard}'s writes land past every earlier one`;
}

function newestEndOf(stream: NewestEndStream): Decision['newestEnd'] {
  return { shard: stream.shard, share: Math.round(stream.share * 1000) / 1000 };
}

const percent = (x: number) => `${Math.round(x * 100)}%`;
