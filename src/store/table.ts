import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { HedgePolicy } from '../core/hedge-policy';
import type { CollectionSpec } from '../core/collection';
import { addIndex, ensureTable, hasIndex, type TableSpec } from './bootstrap';
import { CheckpointStore } from './checkpoints';
import { createDynamoClients, type ClientOptions, type DynamoClients } from './client';
import { DecisionLog } from './decision-log';
import { DynamoStore } from './dynamo-store';
import { LoadStore } from './load-store';
import { sendRetried } from './retry';
import { DynamoMapStore } from './map-store';
import { StreamReader } from './stream-reader';

/** A table's stream, as DescribeTable reports it. */
export interface TableStream {
  readonly arn: string;
  readonly label: string;
  readonly viewType: string;
}

export interface DynamoTableOptions extends ClientOptions {
  /** Hedge shard queries by this policy (SHARDLINE_HEDGE). */
  readonly hedge?: HedgePolicy;
}

/**
 * The one door to DynamoDB of a process: one set of SDK clients (./client), a facet for each kind of record
 * shardline keeps in the collections' tables, and their tables' bootstrap. Each facet retries, labels and
 * translates its calls' errors the same way (./retry, ./dynamo-errors).
 */
export class DynamoTable {
  readonly clients: DynamoClients;
  readonly items: DynamoStore;
  readonly mapStore: DynamoMapStore;
  readonly decisions: DecisionLog;
  private readonly loadStores = new Map<number, LoadStore>();

  constructor(private readonly options: DynamoTableOptions) {
    this.clients = createDynamoClients(options);
    this.items = new DynamoStore(this.clients, options.hedge);
    this.mapStore = new DynamoMapStore(this.clients.doc);
    this.decisions = new DecisionLog(this.clients.doc);
  }

  /** The routers' minute records, written to expire after `ttlSeconds` (0 for a reader). */
  loadStore(ttlSeconds: number): LoadStore {
    const known = this.loadStores.get(ttlSeconds) ?? new LoadStore(this.clients.doc, ttlSeconds);
    this.loadStores.set(ttlSeconds, known);
    return known;
  }

  /** A follower's checkpoints in `collection`'s table. */
  checkpoints(collection: CollectionSpec, follower: string, streamLabel: string): CheckpointStore {
    return new CheckpointStore(this.clients.doc, collection, follower, streamLabel);
  }

  /** `table`'s enabled stream, or undefined when it has none (or it is disabled). */
  async stream(table: string): Promise<TableStream | undefined> {
    const describe = new DescribeTableCommand({ TableName: table });
    const what = `a description of table ${table}`;
    const { Table } = await sendRetried(this.clients.raw, describe, what, { operation: 'describe', table });
    const spec = Table?.StreamSpecification;
    if (!Table?.LatestStreamArn || !spec?.StreamEnabled) return undefined;
    return { arn: Table.LatestStreamArn, label: Table.LatestStreamLabel ?? '', viewType: spec.StreamViewType ?? '' };
  }

  /** A reader of the stream `arn`. */
  streamReader(arn: string): StreamReader {
    return new StreamReader(this.clients.raw, this.options.endpoint, arn);
  }

  /** Creates `spec`'s table when allowed and missing, and waits until it is ACTIVE (./bootstrap). */
  ensure(spec: TableSpec, create: boolean, stream: boolean, ttl: boolean): Promise<void> {
    return ensureTable(this.clients.raw, spec, create, stream, ttl);
  }

  /** Adds a collection's second index, unless it is there already (a reshard that needs it). */
  async ensureIndex(collection: CollectionSpec, index: CollectionSpec['indexes'][number], log: (line: string) => void) {
    if (await hasIndex(this.clients.raw, collection.table, index.name)) return;
    await addIndex(this.clients.raw, collection, index, log);
  }

  /** Closes the process's connections. */
  destroy(): void {
    this.clients.raw.destroy();
  }
}
