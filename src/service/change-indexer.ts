import pLimit from 'p-limit';
import type { CollectionSpec } from '../core/collection';
import { ShardlineError } from '../core/errors';
import type { JsonObject } from '../core/item';
import { decideIndexing } from '../core/member-indexing';
import type { AttributeUpdate, UpdateOutcome } from '../store/maintenance';
import type { CallContext } from '../store/retry';
import type { TableChange } from '../store/stream-records';
import type { MapSource } from './map-source';

/** What became of one change, for one collection of its table (the most telling one when several). */
export type ChangeOutcome =
  | 'indexed'
  /** A member already indexed as its ordered field says (shardline's own writes, and its own updates). */
  | 'current'
  /** A removal, an item of no followed collection, or a newer write that won the race (its own change follows). */
  | 'skipped'
  /** A member whose ordered field cannot be indexed: reported, skipped. */
  | 'poison';

/** A member that cannot be indexed, reported by primary key (never retried: it would never succeed). */
export interface PoisonReport {
  readonly collection: string;
  readonly table: string;
  readonly key: JsonObject;
  readonly sequence: string;
  readonly reason: string;
}

/** A poison report as one JSON log line (stderr of `npm run follow`, the Lambda's log). */
export function poisonLine(report: PoisonReport): string {
  return JSON.stringify({ level: 'warn', event: 'shardline.poison_record', ...report });
}

export interface BatchResult {
  readonly counts: Record<ChangeOutcome, number>;
  /** Sequence numbers of changes that failed transiently (DynamoDB unavailable): retry from the first. */
  readonly failed: string[];
  /** The first transient failure, for the log. */
  readonly error?: Error;
}

export interface ChangeIndexerDeps {
  /** The collections to keep indexed (the config's; the followed ones). */
  readonly collections: readonly CollectionSpec[];
  readonly maps: MapSource;
  readonly writer: { updateAttributes(update: AttributeUpdate, context: CallContext): Promise<UpdateOutcome> };
  /** shardline's own items in a collection's table (never members). */
  readonly isReserved: (collection: CollectionSpec, item: JsonObject) => boolean;
  readonly onPoison: (report: PoisonReport) => void;
  /** How long one change's work may take: an online reshard waits that long for writes routed by an older map. */
  readonly changeDeadlineMs?: number;
}

const RANK: Record<ChangeOutcome, number> = { skipped: 0, current: 1, poison: 2, indexed: 3 };

/**
 * Carries out `decideIndexing` for a batch of stream changes, for every collection of each change's
 * table, against the maps writes use now. Only an item's last change in a batch matters (each decision
 * reads the whole new image, its update conditional on it): earlier ones are counted, not applied.
 * Failing to reach DynamoDB fails the change (to be retried); a member that cannot be indexed never does.
 */
export class ChangeIndexer {
  /** Items updated at once. */
  private readonly limit = pLimit(16);

  constructor(private readonly deps: ChangeIndexerDeps) {}

  async applyBatch(changes: readonly TableChange[], context: CallContext = {}): Promise<BatchResult> {
    const counts: Record<ChangeOutcome, number> = { indexed: 0, current: 0, skipped: 0, poison: 0 };
    const last = new Map<string, TableChange>();
    for (const change of changes) {
      const id = `${change.table}\u0000${JSON.stringify(change.key)}`;
      if (last.has(id)) counts.skipped++;
      last.delete(id); // keeps the map in order of each item's last change
      last.set(id, change);
    }
    const failed: string[] = [];
    let error: Error | undefined;
    await Promise.all(
      [...last.values()].map((change) =>
        this.limit(async () => {
          try {
            counts[await this.apply(change, this.deadlineFor(context))]++;
          } catch (caught) {
            if (caught instanceof ShardlineError && caught.code === 'invalid_item') {
              // DynamoDB refuses the update itself (e.g. the item would outgrow 400 KB): retrying never helps.
              this.report('*', change, caught.message);
              counts.poison++;
              return;
            }
            failed.push(change.sequence);
            error ??= caught as Error;
          }
        }),
      ),
    );
    return { counts, failed: sortSequences(failed), ...(error && { error }) };
  }

  /** Indexes one change for every followed collection of its table. */
  private async apply(change: TableChange, context: CallContext): Promise<ChangeOutcome> {
    if (change.kind === 'remove' || !change.image) return 'skipped';
    let outcome: ChangeOutcome = 'skipped';
    for (const collection of this.deps.collections) {
      if (collection.table !== change.table) continue;
      const found = await this.applyFor(collection, change, change.image, context);
      if (RANK[found] > RANK[outcome]) outcome = found;
    }
    return outcome;
  }

  private deadlineFor(context: CallContext): CallContext {
    if (this.deps.changeDeadlineMs === undefined) return context;
    const own = Date.now() + this.deps.changeDeadlineMs;
    return { ...context, deadline: Math.min(own, context.deadline ?? own) };
  }

  private report(collection: string, change: TableChange, reason: string): void {
    this.deps.onPoison({ collection, table: change.table, key: change.key, sequence: change.sequence, reason });
  }

  private async applyFor(
    collection: CollectionSpec,
    change: TableChange,
    image: JsonObject,
    context: CallContext,
  ): Promise<ChangeOutcome> {
    const { writes } = await this.deps.maps.snapshot(collection, context);
    const decision = decideIndexing(writes, image, (item) => this.deps.isReserved(collection, item), Math.random);
    switch (decision.kind) {
      case 'not-member':
        return 'skipped';
      case 'current':
        return 'current';
      case 'invalid':
        this.report(collection.name, change, decision.reason);
        return 'poison';
      case 'update': {
        const update = { table: change.table, key: change.key, set: decision.set, when: decision.when };
        const { applied } = await this.deps.writer.updateAttributes(update, context);
        return applied ? 'indexed' : 'skipped';
      }
    }
  }
}

/** Sequence numbers are decimal strings of one width per shard; order them as numbers. */
function sortSequences(sequences: string[]): string[] {
  return sequences.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}
