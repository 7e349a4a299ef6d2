import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import type { JsonObject } from '../core/item';
import { parsePointer, type MapPointer } from '../core/shard-map';
import { batchGetAll, type TableRead } from './batch-get';
import { reservedPartition, resendable } from './reserved-keys';
import { DEFAULT_RETRY_POLICY, withRetries, type CallContext, type RetryPolicy } from './retry';

/** A stored map version: the strategy's parameters as JSON, never changed once written. */
export interface StoredVersion {
  readonly version: number;
  readonly strategy: unknown;
  readonly createdAt: string;
}

/**
 * Shard-map pointers and versions, kept in the collection's own table: one pointer
 * item per collection, one item per version. Every pointer change is conditional on
 * the revision it replaces, so two writers can never both win.
 */
export interface MapStore {
  /** The pointers of these collections, read strongly consistent (undefined: none yet). */
  readPointers(collections: readonly CollectionSpec[], context: CallContext): Promise<(MapPointer | undefined)[]>;
  readVersion(collection: CollectionSpec, version: number, context: CallContext): Promise<StoredVersion | undefined>;
  /** Writes a new version; false when that version number is already taken. */
  createVersion(collection: CollectionSpec, version: StoredVersion, context: CallContext): Promise<boolean>;
  /** Writes the first pointer; false when the collection has one already. */
  createPointer(collection: CollectionSpec, pointer: MapPointer, context: CallContext): Promise<boolean>;
  /**
   * Replaces the pointer if its revision is still `expected` (the new one must carry
   * `expected + 1`); false when someone else changed it first.
   */
  replacePointer(
    collection: CollectionSpec,
    expected: number,
    pointer: MapPointer,
    context: CallContext,
  ): Promise<boolean>;
}

export class DynamoMapStore implements MapStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {}

  async readPointers(
    collections: readonly CollectionSpec[],
    context: CallContext,
  ): Promise<(MapPointer | undefined)[]> {
    const found = new Map<string, MapPointer>();
    // BatchGetItem takes 100 keys a call; collections of one table share it.
    for (let start = 0; start < collections.length; start += 100) {
      const requests: Record<string, TableRead> = {};
      for (const collection of collections.slice(start, start + 100)) {
        const keys = requests[collection.table]?.Keys ?? [];
        keys.push(mapKey(collection, 'pointer'));
        requests[collection.table] = { Keys: keys, ConsistentRead: true };
      }
      const items = await batchGetAll(this.doc, requests, {
        what: 'a read of the shard maps',
        context,
        policy: this.retry,
        again: resendable,
      });
      for (const item of items) found.set(String(item.mapOf), parsePointer(JSON.parse(String(item.pointer))));
    }
    return collections.map((collection) => found.get(mapOwner(collection)));
  }

  async readVersion(
    collection: CollectionSpec,
    version: number,
    context: CallContext,
  ): Promise<StoredVersion | undefined> {
    const response = await withRetries(
      `a read of shard map version ${version}`,
      (abortSignal) =>
        this.doc.send(
          new GetCommand({ TableName: collection.table, Key: mapKey(collection, version), ConsistentRead: true }),
          { abortSignal },
        ),
      context,
      this.retry,
    );
    const item = response.Item;
    // A reserved number is a hash of its name: the item says whose it is.
    if (!item || item.mapOf !== mapOwner(collection)) return undefined;
    return { version, strategy: JSON.parse(String(item.strategy)), createdAt: String(item.createdAt) };
  }

  createVersion(collection: CollectionSpec, version: StoredVersion, context: CallContext): Promise<boolean> {
    return this.putIfAbsent(collection, version.version, context, {
      version: version.version,
      strategy: JSON.stringify(version.strategy),
      createdAt: version.createdAt,
    });
  }

  createPointer(collection: CollectionSpec, pointer: MapPointer, context: CallContext): Promise<boolean> {
    return this.putIfAbsent(collection, 'pointer', context, pointerAttributes(pointer));
  }

  async replacePointer(
    collection: CollectionSpec,
    expected: number,
    pointer: MapPointer,
    context: CallContext,
  ): Promise<boolean> {
    if (pointer.revision !== expected + 1) throw new Error('a replaced pointer carries the next revision');
    return this.conditionalPut(
      collection,
      'pointer',
      context,
      pointerAttributes(pointer),
      '#revision = :expected',
      { '#revision': 'revision' },
      { ':expected': expected },
      // A retried put whose first attempt landed fails its condition: it landed if the stored one is ours.
      async () => {
        const [stored] = await this.readPointers([collection], context);
        return stored !== undefined && JSON.stringify(stored) === JSON.stringify(pointer);
      },
    );
  }

  private putIfAbsent(
    collection: CollectionSpec,
    which: 'pointer' | number,
    context: CallContext,
    attributes: JsonObject,
  ): Promise<boolean> {
    const partition = collection.primaryKey[0]!.name;
    return this.conditionalPut(
      collection,
      which,
      context,
      attributes,
      'attribute_not_exists(#pk)',
      { '#pk': partition },
      undefined,
      async () => false,
    );
  }

  private async conditionalPut(
    collection: CollectionSpec,
    which: 'pointer' | number,
    context: CallContext,
    attributes: JsonObject,
    condition: string,
    names: Record<string, string>,
    values: Record<string, unknown> | undefined,
    landedBefore: () => Promise<boolean>,
  ): Promise<boolean> {
    let attempts = 0;
    try {
      await withRetries(
        'a write of the shard maps',
        (abortSignal) => {
          attempts++;
          return this.doc.send(
            new PutCommand({
              TableName: collection.table,
              Item: { ...mapKey(collection, which), mapOf: mapOwner(collection), ...attributes },
              ConditionExpression: condition,
              ExpressionAttributeNames: names,
              ...(values && { ExpressionAttributeValues: values }),
            }),
            { abortSignal },
          );
        },
        context,
        this.retry,
      );
      return true;
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      return attempts > 1 ? landedBefore() : false;
    }
  }
}

function pointerAttributes(pointer: MapPointer): JsonObject {
  return { revision: pointer.revision, pointer: JSON.stringify(pointer) };
}

/** The collection a map item belongs to, as stored in it. */
function mapOwner(collection: CollectionSpec): string {
  return collection.name;
}

/**
 * The primary key of a collection's pointer or of one of its versions, in the reserved key
 * space (src/store/reserved-keys.ts: `__shardline#map#<collection>`, or a reserved number);
 * a string sort key holds `pointer` / `v<version>`, a numeric one 0 / the version.
 */
export function mapKey(collection: CollectionSpec, which: 'pointer' | number): JsonObject {
  const [partition, sort] = collection.primaryKey;
  const owner = `map#${collection.name}`;
  const item = which === 'pointer' ? 'pointer' : `v${which}`;
  if (!sort) return { [partition!.name]: reservedPartition(collection, `${owner}#${item}`) };
  const sortValue = sort.type === 'N' ? (which === 'pointer' ? 0 : which) : item;
  return { [partition!.name]: reservedPartition(collection, owner), [sort.name]: sortValue };
}
