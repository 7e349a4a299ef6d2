import pLimit from 'p-limit';
import type { JsonObject } from '../core/item';
import type { MapPointer, MigrationProgress, ScanCheckpoint } from '../core/shard-map';
import type { Condition } from '../store/conditions';
import type { ScanPage, ScanRequest } from '../store/maintenance';
import { type CallContext, sleep } from '../store/retry';

const COUNTED = ['scanned', 'members', 'moved', 'invalid', 'conflicts', 'repaired'] as const;
type Counts = Record<(typeof COUNTED)[number], number>;

/**
 * What one item's handler did, and the counts it adds to: `skip` not of the collection, `ok` a member
 * already right, `moved` a member updated, `conflict` a concurrent write came first and did what was
 * needed, `invalid` a value that cannot be indexed, `repaired` found wrong by verify and put right,
 * `stale` found wrong and left so (a check that only reports).
 */
const COUNTS_OF = {
  skip: [],
  ok: ['members'],
  moved: ['members', 'moved'],
  conflict: ['members', 'conflicts'],
  invalid: ['invalid'],
  repaired: ['members', 'moved', 'repaired'],
  stale: ['members', 'repaired'],
} as const satisfies Record<string, readonly (keyof Counts)[]>;
export type ItemOutcome = keyof typeof COUNTS_OF;

export interface PassSpec {
  readonly pass: MigrationProgress['pass'];
  readonly table: string;
  /** Items worth reading (others are filtered out by DynamoDB, though still billed). */
  readonly anyOf: readonly Condition[];
  readonly attributes: readonly string[];
  /** Decides and carries out what one item needs. Must be idempotent: a resumed pass repeats a page. */
  readonly handle: (item: JsonObject) => Promise<ItemOutcome>;
}

export interface PassOptions {
  readonly segments: number;
  /** Segments scanned at once. */
  readonly concurrency: number;
  readonly pageSize: number;
  /** Most items scanned per second (undefined: no limit). */
  readonly rate?: number;
  /** Where an interrupted run of the same pass stopped, and its counts. */
  readonly resume: Pick<MapPointer, 'checkpoint' | 'progress'>;
  /** After every page: the counts and where each segment is (persist both to resume). */
  readonly onPage: (progress: MigrationProgress, checkpoint: ScanCheckpoint) => Promise<void>;
  readonly scanPage: (request: ScanRequest, context: CallContext) => Promise<ScanPage>;
  /** Once aborted, no segment starts another page: the pass returns after the pages in flight. */
  readonly stop?: AbortSignal;
}

/**
 * One parallel scan of the table, `concurrency` segments at a time, each page's items handled before the
 * segment's checkpoint moves past it: a crash loses at most the pages in flight, which a resumed pass redoes.
 */
export async function runScanPass(spec: PassSpec, options: PassOptions): Promise<MigrationProgress> {
  const { checkpoint, progress: counted } = options.resume;
  const resumable = checkpoint?.pass === spec.pass && checkpoint.segments.length === options.segments;
  const positions: (Record<string, unknown> | null | 'done')[] = resumable
    ? [...checkpoint.segments]
    : Array.from({ length: options.segments }, () => null);
  const carried = resumable && counted?.pass === spec.pass ? counted : undefined;
  const counts = Object.fromEntries(COUNTED.map((name) => [name, carried?.[name] ?? 0])) as Counts;
  const startedAt = carried?.startedAt ?? Date.now();
  const throttle = rateGate(options.rate);
  const updates = pLimit(32);
  const progress = (): MigrationProgress => ({
    pass: spec.pass,
    ...counts,
    segmentsDone: positions.filter((p) => p === 'done').length,
    segments: options.segments,
    startedAt,
  });
  // Pages finish in any order; their reports go out one at a time, each with the state after it.
  let reporting = Promise.resolve();
  const report = () => {
    reporting = reporting.then(() => options.onPage(progress(), { pass: spec.pass, segments: [...positions] }));
    return reporting;
  };

  const scanSegment = async (segment: number): Promise<void> => {
    while (positions[segment] !== 'done' && !options.stop?.aborted) {
      const limit = options.rate ? Math.max(1, Math.min(options.pageSize, Math.floor(options.rate))) : options.pageSize;
      await throttle(limit);
      // The loop condition leaves a resume key or null here.
      const after = positions[segment] as Record<string, unknown> | null;
      const request = { table: spec.table, segment, segments: options.segments, limit, anyOf: spec.anyOf };
      const page = await options.scanPage({ ...request, attributes: spec.attributes, ...(after && { after }) }, {});
      const outcomes = await Promise.all(page.items.map((item) => updates(() => spec.handle(item))));
      counts.scanned += page.scanned;
      for (const outcome of outcomes) for (const name of COUNTS_OF[outcome]) counts[name]++;
      positions[segment] = page.next ?? 'done';
      await report();
    }
  };

  const segments = pLimit(options.concurrency);
  await Promise.all(positions.map((_, segment) => segments(() => scanSegment(segment))));
  await reporting;
  return progress();
}

/** Waits so that at most `rate` items a second are asked for (no limit when undefined). */
function rateGate(rate: number | undefined): (items: number) => Promise<void> {
  if (!rate) return async () => {};
  let nextFree = Date.now();
  return async (items) => {
    const start = Math.max(nextFree, Date.now());
    nextFree = start + (items / rate) * 1000;
    const wait = start - Date.now();
    if (wait > 0) await sleep(wait);
  };
}
