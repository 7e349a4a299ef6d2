import { SpaceSaving } from '../core/space-saving';
import { cutToBytes } from './group-sketch';
import {
  FIGURES,
  type Figure,
  GROUP_KEYS,
  GROUP_SKETCH_BYTES,
  type LoadRecord,
  perFigure,
  SAMPLES_PER_RECORD,
  SAMPLES_PER_SHARD,
} from './load-record';

/** Values each Space-Saving sketch keeps a count of. */
const HOT_KEYS = 100;

interface OpenMinute {
  readonly minute: number;
  readonly mapVersion: number;
  readonly figures: Record<Figure, number[]>;
  readonly written: SpaceSaving;
  readonly read: SpaceSaving;
  /** Per shard: the reservoir, and how many writes it has seen. */
  readonly samples: string[][];
  readonly sampled: number[];
  /** A grouped collection's writes and write units per group (created by its first write of a group). */
  groups?: { readonly writes: SpaceSaving; readonly writeUnits: SpaceSaving };
}

/**
 * One router's counts per collection for the minute under way (docs/autopilot.md); `take(now)` hands over each
 * ended minute as a LoadRecord. A new map version starts the minute afresh, so a record's shards are one map's.
 */
export class LoadMeter {
  private readonly open = new Map<string, OpenMinute>();
  private readonly ended: LoadRecord[] = [];

  constructor(
    private readonly router: string,
    private readonly minuteMs: number,
  ) {}

  /** One write; `group`: a grouped collection's, counted per group and not sampled (no range re-cut reads them). */
  wrote(
    collection: string,
    mapVersion: number,
    shard: number,
    value: string,
    units: number,
    now: number,
    group?: string,
  ): void {
    const minute = this.minuteOf(collection, mapVersion, now);
    add(minute.figures.writes, shard, 1);
    add(minute.figures.writeUnits, shard, units);
    minute.written.add(value);
    if (group === undefined) {
      sample(minute, shard, value);
      return;
    }
    minute.groups ??= { writes: new SpaceSaving(GROUP_KEYS), writeUnits: new SpaceSaving(GROUP_KEYS) };
    minute.groups.writes.add(group);
    minute.groups.writeUnits.add(group, units);
  }

  queried(
    collection: string,
    mapVersion: number,
    shard: number,
    items: number,
    units: number,
    values: readonly string[],
    now: number,
  ): void {
    const minute = this.minuteOf(collection, mapVersion, now);
    add(minute.figures.queries, shard, 1);
    add(minute.figures.itemsRead, shard, items);
    add(minute.figures.readUnits, shard, units);
    for (const value of values) minute.read.add(value);
  }

  throttled(collection: string, mapVersion: number, shard: number, now: number): void {
    add(this.minuteOf(collection, mapVersion, now).figures.throttles, shard, 1);
  }

  take(now: number): LoadRecord[] {
    const start = this.startOf(now);
    for (const [collection, minute] of this.open) {
      if (minute.minute < start) {
        this.close(collection, minute);
        this.open.delete(collection);
      }
    }
    return this.ended.splice(0);
  }

  private minuteOf(collection: string, mapVersion: number, now: number): OpenMinute {
    const start = this.startOf(now);
    const current = this.open.get(collection);
    if (current && current.minute === start && current.mapVersion === mapVersion) return current;
    if (current) this.close(collection, current);
    const fresh: OpenMinute = {
      minute: start,
      mapVersion,
      figures: perFigure((): number[] => []),
      written: new SpaceSaving(HOT_KEYS),
      read: new SpaceSaving(HOT_KEYS),
      samples: [],
      sampled: [],
    };
    this.open.set(collection, fresh);
    return fresh;
  }

  private close(collection: string, minute: OpenMinute): void {
    const shardCount = Math.max(...FIGURES.map((figure) => minute.figures[figure].length));
    // Many shards written share the record's budget: each keeps a uniform subset of its reservoir.
    const written = minute.samples.filter((sample) => sample.length > 0).length;
    const perShard = Math.max(1, Math.floor(SAMPLES_PER_RECORD / Math.max(1, written)));
    const figures = perFigure((figure) => Array.from({ length: shardCount }, (_, i) => minute.figures[figure][i] ?? 0));
    this.ended.push({
      collection,
      router: this.router,
      minute: minute.minute,
      minuteMs: this.minuteMs,
      mapVersion: minute.mapVersion,
      shardCount,
      figures,
      written: minute.written.summary(),
      read: minute.read.summary(),
      writeSamples: Array.from({ length: shardCount }, (_, i) => subset(minute.samples[i] ?? [], perShard)),
      ...(minute.groups && {
        groups: {
          writes: cutToBytes(minute.groups.writes.summary(), GROUP_SKETCH_BYTES),
          writeUnits: cutToBytes(minute.groups.writeUnits.summary(), GROUP_SKETCH_BYTES),
        },
      }),
    });
  }

  private startOf(now: number): number {
    return now - (now % this.minuteMs);
  }
}

/** Reservoir sampling (Vitter's algorithm R) per shard: a uniform sample of the values written there. */
function sample(minute: OpenMinute, shard: number, value: string): void {
  add(minute.sampled, shard, 1);
  minute.samples[shard] ??= [];
  const reservoir = minute.samples[shard];
  const full = reservoir.length >= SAMPLES_PER_SHARD;
  const slot = full ? Math.floor(Math.random() * minute.sampled[shard]!) : reservoir.length;
  if (slot < SAMPLES_PER_SHARD) reservoir[slot] = value;
}

/** `size` of `values` chosen uniformly (a partial Fisher–Yates shuffle of a copy). */
function subset(values: readonly string[], size: number): string[] {
  if (values.length <= size) return [...values];
  const copy = [...values];
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, size);
}

function add(values: number[], shard: number, amount: number): void {
  while (values.length <= shard) values.push(0);
  values[shard]! += amount;
}
