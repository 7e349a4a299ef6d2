import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import type { JsonObject } from '../core/item';
import { reservedPartition } from './reserved-keys';
import { withRetries } from './retry';

/** How many decisions a collection keeps (DESIGN §12). */
export const KEPT_DECISIONS = 100;

/**
 * The autopilot's last decisions of one collection, newest last, in one reserved item of
 * its table (`__shardline#autopilot#<collection>`): what `npm run autopilot -- --status` shows.
 */
export class DecisionLog {
  constructor(private readonly doc: DynamoDBDocumentClient) {}

  async read(collection: CollectionSpec): Promise<JsonObject[]> {
    const get = new GetCommand({ TableName: collection.table, Key: key(collection), ConsistentRead: true });
    const answer = await withRetries('a read of the autopilot log', (abortSignal) =>
      this.doc.send(get, { abortSignal }),
    );
    const item = answer.Item;
    if (!item || item.autopilotOf !== collection.name || typeof item.decisions !== 'string') return [];
    return JSON.parse(item.decisions) as JsonObject[];
  }

  /** Appends `decision`, keeping the last KEPT_DECISIONS. One autopilot per collection at a time. */
  async append(collection: CollectionSpec, decision: JsonObject): Promise<void> {
    const decisions = [...(await this.read(collection)), decision].slice(-KEPT_DECISIONS);
    const item = { ...key(collection), autopilotOf: collection.name, decisions: JSON.stringify(decisions) };
    await withRetries('a write of the autopilot log', (abortSignal) =>
      this.doc.send(new PutCommand({ TableName: collection.table, Item: item }), { abortSignal }),
    );
  }
}

function key(collection: CollectionSpec): JsonObject {
  const [partition, sort] = collection.primaryKey;
  const owner = reservedPartition(collection, `autopilot#${collection.name}`);
  return { [partition!.name]: owner, ...(sort && { [sort.name]: sort.type === 'N' ? 0 : 'decisions' }) };
}
