import pLimit from 'p-limit';
import type { JsonObject } from '../core/item';
import type { ChangeIndexer, ChangeOutcome } from '../service/change-indexer';
import type { CheckpointStore } from '../store/checkpoints';
import { backoffDelay, sleep, type RetryPolicy } from '../store/retry';
import type { RecordsPage, StreamReader, StreamShard } from '../store/stream-reader';
import { changeOfRecord, type TableChange } from '../store/stream-records';

export interface FollowStats {
  /** Records read, shardline's own checkpoints aside. */
  seen: number;
  readonly outcomes: Record<ChangeOutcome, number>;
  /** How old the last record handled was when handled (0 once caught up). */
  lagMs: number;
  shardsDone: number;
}

export interface FollowerDeps {
  readonly table: string;
  readonly reader: Pick<StreamReader, 'shards' | 'iterator' | 'read'>;
  readonly checkpoints: Pick<CheckpointStore, 'read' | 'write'>;
  readonly indexer: Pick<ChangeIndexer, 'applyBatch'>;
  /** A follower checkpoint's own change (a batch of only those writes no checkpoint, or it would never idle). */
  readonly isCheckpoint: (key: JsonObject) => boolean;
  /** Records per GetRecords call (1–1000). */
  readonly batchSize: number;
  /** Return once every shard is read to its end or caught up, instead of following forever. */
  readonly untilIdle: boolean;
  /** How long to wait, once caught up, before reading again. */
  readonly pollMs: number;
  /** Stops the follower after the batch in hand, or at once while it waits (a failed batch waits for the next run). */
  readonly signal: AbortSignal;
  /** The waits between attempts of a batch that failed; FOLLOW_RETRY unless a test shortens them. */
  readonly retry?: RetryPolicy;
  readonly onProgress: (stats: FollowStats) => void;
  readonly log: (line: string) => void;
}

/** A failed batch waits up to 0.5, 1, 2 … 30 s (full jitter) between attempts that never run out. */
export const FOLLOW_RETRY: RetryPolicy = {
  maxAttempts: Number.POSITIVE_INFINITY,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

interface ShardState {
  done: boolean;
  /** The last record handled (what the checkpoint says, or newer). */
  sequence?: string;
  iterator?: string;
}

/**
 * Follows one table's stream: every shard, a parent read to its end before its children (so one item's
 * changes are handled in order), each batch handed to the indexer until it lands (changes are never
 * skipped), then checkpointed. Restarted, it resumes after each shard's checkpoint; records handled again
 * are harmless (every decision is idempotent), so a crash between a batch and its checkpoint repeats one batch.
 */
export class Follower {
  readonly stats: FollowStats = {
    seen: 0,
    outcomes: { indexed: 0, current: 0, skipped: 0, poison: 0 },
    lagMs: 0,
    shardsDone: 0,
  };
  private readonly shards = new Map<string, ShardState>();
  private readonly limit = pLimit(8);

  constructor(private readonly deps: FollowerDeps) {}

  async run(): Promise<void> {
    while (!this.stopped()) {
      const listed = await this.deps.reader.shards();
      await this.loadCheckpoints(listed);
      const ready = listed.filter((shard) => !this.state(shard.id).done && this.parentDone(shard, listed));
      // Shards whose parents are done hold independent items: read them side by side.
      const rounds = await this.limit.map(ready, (shard) => this.readShard(shard));
      if (this.stopped()) return;
      this.stats.lagMs = 0; // every shard read to its end or caught up
      this.deps.onProgress(this.stats);
      // A finished parent lets its children start at once; otherwise a round with nothing new is idle.
      if (rounds.some((round) => round.done || round.records > 0)) continue;
      if (this.deps.untilIdle) return;
      await sleep(this.deps.pollMs, this.deps.signal);
    }
  }

  private stopped(): boolean {
    return this.deps.signal.aborted;
  }

  /** Every listed shard's state is loaded (`loadCheckpoints`) before it is asked for. */
  private state(id: string): ShardState {
    return this.shards.get(id)!;
  }

  /** A shard may be read once its parent is done, or gone from the stream (older than 24 hours). */
  private parentDone(shard: StreamShard, listed: readonly StreamShard[]): boolean {
    if (!shard.parent || !listed.some((other) => other.id === shard.parent)) return true;
    return this.state(shard.parent).done;
  }

  private async loadCheckpoints(listed: readonly StreamShard[]): Promise<void> {
    const unknown = listed.filter((shard) => !this.shards.has(shard.id)).map((shard) => shard.id);
    if (unknown.length === 0) return;
    const stored = await this.deps.checkpoints.read(unknown);
    for (const id of unknown) {
      const { done = false, sequence } = stored.get(id) ?? {};
      this.shards.set(id, { done, ...(sequence !== undefined && { sequence }) });
      if (done) this.stats.shardsDone++;
    }
  }

  /** Reads a shard until it is caught up (open) or at its end (closed); how many records it handled. */
  private async readShard(shard: StreamShard): Promise<{ records: number; done: boolean }> {
    const state = this.state(shard.id);
    let records = 0;
    while (!this.stopped()) {
      state.iterator ??= await this.startingIterator(shard.id, state);
      const page = await this.deps.reader.read(state.iterator, this.deps.batchSize);
      if (page === 'expired') {
        state.iterator = undefined;
        continue;
      }
      const handled = await this.handle(shard.id, state, page.records);
      if (handled === 'stopped') break;
      records += handled;
      if (!page.next) {
        state.done = true;
        this.stats.shardsDone++;
        await this.deps.checkpoints.write(shard.id, {
          done: true,
          ...(state.sequence && { sequence: state.sequence }),
        });
        return { records, done: true };
      }
      state.iterator = page.next;
      if (page.records.length === 0) break;
    }
    return { records, done: false };
  }

  private async startingIterator(shard: string, state: ShardState): Promise<string> {
    const iterator = await this.deps.reader.iterator(shard, state.sequence);
    if (iterator !== 'trimmed') return iterator;
    this.deps.log(
      `the stream no longer holds the records after ${state.sequence} in shard ${shard} (it keeps 24 hours): ` +
        'changes made meanwhile may be missing; `npm run reshard -- --collection NAME --adopt` re-indexes members',
    );
    delete state.sequence;
    return (await this.deps.reader.iterator(shard, undefined)) as string;
  }

  /**
   * Indexes one page (retrying until it lands) and checkpoints it; the records that were not checkpoints,
   * or 'stopped' when the follower was stopped before the page landed (neither counted nor checkpointed).
   */
  private async handle(shard: string, state: ShardState, records: RecordsPage['records']): Promise<number | 'stopped'> {
    if (records.length === 0) return 0;
    const changes = records.map((record) => changeOfRecord(record, this.deps.table));
    const foreign = changes.filter((change) => !this.deps.isCheckpoint(change.key));
    if (foreign.length > 0 && !(await this.indexed(foreign))) return 'stopped';
    this.stats.seen += foreign.length;
    const last = changes[changes.length - 1]!;
    state.sequence = last.sequence;
    if (last.changedAt !== undefined) this.stats.lagMs = Math.max(0, Date.now() - last.changedAt);
    if (foreign.length > 0) await this.deps.checkpoints.write(shard, { done: false, sequence: last.sequence });
    this.deps.onProgress(this.stats);
    return foreign.length;
  }

  /** Applies `changes` until every one lands (true), waiting between attempts; false once stopped. */
  private async indexed(changes: readonly TableChange[]): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.deps.indexer.applyBatch(changes);
      if (result.failed.length === 0) {
        for (const [outcome, count] of Object.entries(result.counts)) {
          this.stats.outcomes[outcome as ChangeOutcome] += count;
        }
        return true;
      }
      this.deps.log(`${result.failed.length} changes could not be indexed (${result.error?.message}); retrying`);
      await sleep(backoffDelay(attempt, this.deps.retry ?? FOLLOW_RETRY), this.deps.signal);
      if (this.stopped()) return false;
    }
  }
}
