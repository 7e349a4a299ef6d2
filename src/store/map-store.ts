import { GetCommand, PutCommand, type DynamoDBDocumentClient, type PutCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import { internalError, malformedRecord } from '../core/errors';
import type { JsonObject } from '../core/item';
import { EMPTY_GROUP_MAP, type GroupMap, parseGroupMap, serializeGroupMap } from '../core/group-map';
import { parsePointer, type MapPointer } from '../core/shard-map';
import { strategyFromConfig } from '../core/strategies';
import { batchGetAll, type TableRead } from './batch-get';
import { MalformedRecords } from './malformed-records';
import { isConditionFailed } from './dynamo-errors';
import { type MapItem, mapKey, ownerOf, parseJson, pointerAttributes } from './map-items';
import { sendRetried, withRetries, type CallContext } from './retry';

/** A stored map version: the strategy's parameters as JSON, never changed once written. */
export interface StoredVersion {
  readonly version: number;
  readonly strategy: unknown;
  readonly createdAt: string;
}

/**
 * Shard-map pointers and versions, one item each in the collection's own table. Every pointer change
 * is conditional on the revision it replaces, so two writers can never both win.
 */
export interface MapStore {
  /** The pointers of these collections, read strongly consistent (undefined: none yet). */
  readPointers(collections: readonly CollectionSpec[], context: CallContext): Promise<(MapPointer | undefined)[]>;
  readVersion(collection: CollectionSpec, version: number, context: CallContext): Promise<StoredVersion | undefined>;
  /** Writes a new version; false when that version number is already taken. */
  createVersion(collection: CollectionSpec, version: StoredVersion, context: CallContext): Promise<boolean>;
  /** Writes the first pointer; false when the collection has one already. */
  createPointer(collection: CollectionSpec, pointer: MapPointer, context: CallContext): Promise<boolean>;
  /** Replaces the pointer if still at revision `expected` (the new one carries the next); false if beaten to it. */
  replacePointer(
    collection: CollectionSpec,
    expected: number,
    pointer: MapPointer,
    context: CallContext,
  ): Promise<boolean>;
}

/** Grouped collections' group maps (core/group-map.ts), one item each beside the shard maps. */
export interface GroupMapStore {
  /** Read strongly consistent; a grouped collection with none stored has the empty map, others undefined. */
  readGroupMaps(collections: readonly CollectionSpec[], context: CallContext): Promise<(GroupMap | undefined)[]>;
  /** Replaces the group map if still at revision `map.revision - 1` (0: none stored); false if beaten to it. */
  replaceGroupMap(collection: CollectionSpec, map: GroupMap, context: CallContext): Promise<boolean>;
  /** Every collection's pointer and every grouped one's group map, in one read. */
  readRouting(
    collections: readonly CollectionSpec[],
    context: CallContext,
  ): Promise<{ pointers: (MapPointer | undefined)[]; groups: (GroupMap | undefined)[] }>;
}

export class DynamoMapStore implements MapStore, GroupMapStore {
  private readonly malformed = new MalformedRecords();

  constructor(private readonly doc: DynamoDBDocumentClient) {}

  async readPointers(
    collections: readonly CollectionSpec[],
    context: CallContext,
  ): Promise<(MapPointer | undefined)[]> {
    return (await this.readRouting(collections, context, false)).pointers;
  }

  async readGroupMaps(collections: readonly CollectionSpec[], context: CallContext): Promise<(GroupMap | undefined)[]> {
    const items = await this.readEach(collections, false, true, context);
    return this.groupMapsOf(collections, items);
  }

  /** Pointers and group maps in one read: a router's refresh is one BatchGetItem, grouped collections or not. */
  async readRouting(collections: readonly CollectionSpec[], context: CallContext, groups = true) {
    const items = await this.readEach(collections, true, groups, context);
    const pointers = collections.map((collection) => {
      const item = items.get(`pointer/${collection.name}`);
      return item && this.checked(collection, 'pointer', () => parsePointer(parseJson(item.pointer)));
    });
    return { pointers, groups: groups ? this.groupMapsOf(collections, items) : [] };
  }

  private groupMapsOf(collections: readonly CollectionSpec[], items: Map<string, JsonObject>) {
    return collections.map((collection) => {
      if (!collection.group) return undefined;
      const item = items.get(`groups/${collection.name}`);
      // A grouped collection with no record yet has every group on the default.
      return (item && this.checked(collection, 'groups', () => parseGroupMap(item.groups))) ?? EMPTY_GROUP_MAP;
    });
  }

  /** Map items, strongly consistent, by `<which>/<collection>`; items of another owner left out. */
  private async readEach(
    collections: readonly CollectionSpec[],
    pointers: boolean,
    groups: boolean,
    context: CallContext,
  ): Promise<Map<string, JsonObject>> {
    const wanted = collections.flatMap((collection) => [
      ...(pointers ? [{ collection, which: 'pointer' as const }] : []),
      ...(groups && collection.group ? [{ collection, which: 'groups' as const }] : []),
    ]);
    const found = new Map<string, JsonObject>();
    // BatchGetItem takes 100 keys a call; collections of one table share it.
    for (let start = 0; start < wanted.length; start += 100) {
      const requests: Record<string, TableRead> = {};
      for (const { collection, which } of wanted.slice(start, start + 100)) {
        const keys = [...(requests[collection.table]?.Keys ?? []), mapKey(collection, which)];
        requests[collection.table] = { Keys: keys, ConsistentRead: true };
      }
      const read = { what: 'a read of the shard maps', context };
      for (const item of await batchGetAll(this.doc, requests, read)) {
        const match = wanted.find(({ collection, which }) => ownerOf(collection, which) === item.mapOf);
        if (match) found.set(`${match.which}/${match.collection.name}`, item);
      }
    }
    return found;
  }

  async readVersion(
    collection: CollectionSpec,
    version: number,
    context: CallContext,
  ): Promise<StoredVersion | undefined> {
    const get = new GetCommand({ TableName: collection.table, Key: mapKey(collection, version), ConsistentRead: true });
    const label = { operation: 'get', table: collection.table } as const;
    const response = await sendRetried(this.doc, get, `a read of shard map version ${version}`, label, context);
    const item = response.Item;
    // A reserved number is a hash of its name: the item says whose it is.
    if (!item || item.mapOf !== collection.name) return undefined;
    return this.checked(collection, version, () => {
      const strategy = parseJson(item.strategy);
      strategyFromConfig(strategy); // throws on a strategy no router could route by
      const says = String(item.version);
      if (says !== String(version)) throw malformedRecord(`it says it is version ${says}`);
      return { version, strategy, createdAt: String(item.createdAt) };
    });
  }

  replaceGroupMap(collection: CollectionSpec, map: GroupMap, context: CallContext): Promise<boolean> {
    const expected = map.revision - 1;
    const condition = expected === 0 ? absent(collection) : revisionIs(expected);
    const attributes = { revision: map.revision, groups: serializeGroupMap(map) };
    return this.conditionalPut(collection, 'groups', context, attributes, condition, async () => {
      const [stored] = await this.readGroupMaps([collection], context);
      return stored !== undefined && serializeGroupMap(stored) === serializeGroupMap(map);
    });
  }

  /** What `read` makes of a stored map item; a malformed one reads as absent, reported once. */
  private checked<T>(collection: CollectionSpec, which: MapItem, read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      const what = which === 'pointer' ? 'shard-map pointer' : which === 'groups' ? 'group map' : `shard map v${which}`;
      this.malformed.report(what, collection.table, mapKey(collection, which), (error as Error).message);
      return undefined;
    }
  }

  createVersion(collection: CollectionSpec, version: StoredVersion, context: CallContext): Promise<boolean> {
    const { strategy, createdAt } = version;
    const attributes = { version: version.version, strategy: JSON.stringify(strategy), createdAt };
    return this.conditionalPut(collection, version.version, context, attributes, absent(collection));
  }

  createPointer(collection: CollectionSpec, pointer: MapPointer, context: CallContext): Promise<boolean> {
    return this.conditionalPut(collection, 'pointer', context, pointerAttributes(pointer), absent(collection));
  }

  async replacePointer(
    collection: CollectionSpec,
    expected: number,
    pointer: MapPointer,
    context: CallContext,
  ): Promise<boolean> {
    if (pointer.revision !== expected + 1) throw internalError('a replaced pointer carries the next revision');
    const attributes = pointerAttributes(pointer);
    return this.conditionalPut(collection, 'pointer', context, attributes, revisionIs(expected), async () => {
      const [stored] = await this.readPointers([collection], context);
      return stored !== undefined && JSON.stringify(stored) === JSON.stringify(pointer);
    });
  }

  /**
   * Puts the map item if `condition` holds; false if it did not. A retried put whose first attempt landed
   * fails its condition: then `landedBefore` says whether the stored item is this one (a create: never).
   */
  private async conditionalPut(
    collection: CollectionSpec,
    which: MapItem,
    context: CallContext,
    attributes: JsonObject,
    condition: PutCondition,
    landedBefore = async () => false,
  ): Promise<boolean> {
    const Item = { ...mapKey(collection, which), mapOf: ownerOf(collection, which), ...attributes };
    let attempts = 0;
    try {
      const put = { TableName: collection.table, Item, ...condition };
      const label = { operation: 'put', table: put.TableName } as const;
      await withRetries('a write of the shard maps', label, context, (abortSignal) => {
        attempts++;
        return this.doc.send(new PutCommand(put), { abortSignal });
      });
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return attempts > 1 ? landedBefore() : false;
    }
  }
}

type PutCondition = Pick<
  PutCommandInput,
  'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

/** No item under the key yet. */
function absent(collection: CollectionSpec): PutCondition {
  const names = { '#pk': collection.primaryKey[0]!.name };
  return { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: names };
}

function revisionIs(expected: number): PutCondition {
  return {
    ConditionExpression: '#revision = :expected',
    ExpressionAttributeNames: { '#revision': 'revision' },
    ExpressionAttributeValues: { ':expected': expected },
  };
}
