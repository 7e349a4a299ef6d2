import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import type { CollectionSpec } from '../core/collection';
import type { JsonObject } from '../core/item';
import { reservedKey } from './reserved-keys';
import { sendRetried, type CallContext } from './retry';

/** How many decisions a collection keeps (docs/autopilot.md). */
export const KEPT_DECISIONS = 100;

/** A group a step resized (or held), as the group cooldown reads it back. */
const keptGroupChange = z.looseObject({
  group: z.string(),
  action: z.enum(['grow', 'shrink', 'resume', 'hold']),
  shards: z.number().int().min(1),
  to: z.number().int().min(1),
});

/**
 * What `--status` and the autopilot's rising bar read of a kept decision, checked on every read:
 * the item sits in the table, where anyone who can write it could forge it. Other fields pass.
 */
const keptDecision = z.looseObject({
  at: z.iso.datetime(),
  action: z.enum(['none', 'reshard', 'resize']),
  reason: z.string(),
  mapVersion: z.number().int().nonnegative(),
  imbalance: z.number().nonnegative().nullable(),
  predictedImbalance: z.number().nonnegative().optional(),
  dryRun: z.boolean().optional(),
  heldBack: z.boolean().optional(),
  calm: z.boolean().optional(),
  streak: z.number().int().min(0).max(64).optional(),
  calmSince: z.iso.datetime().optional(),
  repeats: z.number().int().min(1).optional(),
  lastAt: z.iso.datetime().optional(),
  reshard: z.object({ code: z.number().int().nullable(), last: z.string() }).optional(),
  groups: z.array(keptGroupChange).max(64).readonly().optional(),
});

export type KeptDecision = z.infer<typeof keptDecision>;

/**
 * The autopilot's last decisions of one collection, oldest first, in one reserved item of its
 * table (`__shardline#autopilot#<collection>`): what `npm run autopilot -- --status` shows.
 * A malformed item or entry reads as absent, with one warning: never a crash.
 */
export class DecisionLog {
  constructor(private readonly doc: DynamoDBDocumentClient) {}

  async read(collection: CollectionSpec, context: CallContext = {}): Promise<KeptDecision[]> {
    const get = new GetCommand({ TableName: collection.table, Key: key(collection), ConsistentRead: true });
    const label = { operation: 'get', table: collection.table } as const;
    const answer = await sendRetried(this.doc, get, 'a read of the autopilot log', label, context);
    const item = answer.Item;
    if (!item) return [];
    const where = `shardline: the autopilot log of "${collection.name}"`;
    if (item.autopilotOf !== collection.name || typeof item.decisions !== 'string') {
      console.warn(`${where} is not one (malformed item): read as empty`);
      return [];
    }
    let entries: unknown;
    try {
      entries = JSON.parse(item.decisions);
    } catch {
      entries = undefined;
    }
    if (!Array.isArray(entries)) {
      console.warn(`${where} holds no list of decisions (malformed item): read as empty`);
      return [];
    }
    const valid = entries.flatMap((entry) => keptDecision.safeParse(entry).data ?? []);
    if (valid.length < entries.length) {
      console.warn(`${where}: ${entries.length - valid.length} malformed decision(s) left out`);
    }
    return valid;
  }

  /** Appends `decision`, keeping the last KEPT_DECISIONS (as many as fit in the item). One autopilot at a time. */
  append(collection: CollectionSpec, decision: object, context: CallContext = {}): Promise<void> {
    return this.change(collection, (decisions) => [...decisions, decision], context);
  }

  /** Rewrites the log as `edit` makes it (a reshard's outcome into its decision), keeping the last KEPT_DECISIONS. */
  async change(
    collection: CollectionSpec,
    edit: (decisions: readonly KeptDecision[]) => readonly object[],
    context: CallContext = {},
  ): Promise<void> {
    const decisions = edit(await this.read(collection, context)).slice(-KEPT_DECISIONS);
    const item = { ...key(collection), autopilotOf: collection.name, decisions: fittingText(decisions) };
    const put = new PutCommand({ TableName: collection.table, Item: item });
    const label = { operation: 'put', table: collection.table } as const;
    await sendRetried(this.doc, put, 'a write of the autopilot log', label, context);
  }
}

/** The most a log's text takes: far inside DynamoDB's 400 KB item, whatever group names decisions list. */
const MAX_LOG_BYTES = 300_000;

/** The newest decisions whose JSON fits in MAX_LOG_BYTES (the oldest go first). */
function fittingText(decisions: readonly object[]): string {
  let kept = decisions;
  let text = JSON.stringify(kept);
  while (kept.length > 1 && Buffer.byteLength(text) > MAX_LOG_BYTES) {
    kept = kept.slice(Math.max(1, Math.floor(kept.length / 10)));
    text = JSON.stringify(kept);
  }
  return text;
}

function key(collection: CollectionSpec): JsonObject {
  return reservedKey(collection, `autopilot#${collection.name}`, ['decisions', 0]);
}
