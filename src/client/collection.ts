import type { components, operations } from './api/index.js';
import { batchPut, type BatchWriteResult } from './batches.js';
import { holdsPatch, outcomeUnknown, sameValue } from './confirm.js';
import { GroupClient, type GroupValue } from './group.js';
import { listingPages } from './listing.js';
import { type Answer, type Call, errorOf, type Transport } from './transport.js';

/** The JSON body an operation answers with `Status`. */
export type JsonOf<Op extends keyof operations, Status extends number> =
  operations[Op]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }> ? Body : never;

/** An item as shardline stores and returns it: primary key, ordered field(s), any attributes. */
export type Item = components['schemas']['Item'];
/** A primary key: the table's key attribute names to their values (`{pk: "…", sk: "…"}`). */
export type PrimaryKey = Record<string, string | number | bigint | { toString(): string }>;
/** The filters, order and projection of a listing (`cursor` and `limit` are the iterator's). */
export type ListQuery = Omit<NonNullable<operations['listItems']['parameters']['query']>, 'cursor'>;
export type ListPage = JsonOf<'listItems', 200>;
export type WriteResult = JsonOf<'putItem', 201>;
export type RouteResult = JsonOf<'getKeyRoute', 200>;
export type CollectionInfo = JsonOf<'getCollection', 200>;
export type BatchGetResult = JsonOf<'batchGetItems', 200>;
export type BatchDeleteResult = JsonOf<'batchDeleteItems', 200>;

export interface Conditions {
  /** Write only while the item has one of these ETags (`*`: exists); else a 412. */
  readonly ifMatch?: string;
  /** `*`: create only; else a 412. */
  readonly ifNoneMatch?: string;
}

/** An item with the strong ETag shardline sent for it. */
export interface Tagged<T> {
  readonly value: T;
  readonly etag: string | undefined;
  /** The capacity DynamoDB reported for the request's calls (`x-consumed-rcu` / `x-consumed-wcu`), when sent. */
  readonly consumed?: Consumed;
}

/** Read and write units, table and indexes together, as DynamoDB reported them for one request. */
export interface Consumed {
  readonly readUnits: number;
  readonly writeUnits: number;
}

/**
 * Every call of one collection; errors are ShardlineClientError. A conditional write or delete whose repeat after
 * a dropped connection meets 412 or 404 reads the item: never a failure for a change that was made.
 */
export class CollectionClient {
  private readonly path: string;

  constructor(
    private readonly transport: Transport,
    readonly name: string,
  ) {
    this.path = `/collections/${encodeURIComponent(name)}`;
  }

  /** The collection's strategy, shard count, boundaries and map. */
  async info(): Promise<CollectionInfo> {
    return (await this.transport.send({ method: 'GET', path: this.path })).body as CollectionInfo;
  }

  async put(item: Item, conditions: Conditions = {}): Promise<Tagged<WriteResult>> {
    const headers = conditionHeaders(conditions);
    const call = { method: 'PUT', path: `${this.path}/items`, body: item, headers, acceptAfterDrop: [412] };
    const answer = await this.transport.send(call);
    if (answer.status !== 412) return tagged(answer, answer.body as WriteResult);
    return this.confirm(answer, call, 'the item there is not the one this put wrote', async () => {
      const key = await this.keyOf(item);
      const now = key && (await this.current(key));
      return now && sameValue(now.value.item, item) ? now : undefined;
    });
  }

  /** The item, or undefined when the collection has none with that key. */
  async get(key: PrimaryKey, options: { fields?: readonly string[] } = {}): Promise<Tagged<Item> | undefined> {
    const query = { ...keyQuery(key), fields: options.fields?.join(',') };
    const call = { method: 'GET', path: `${this.path}/item`, query, accept: [404] };
    const answer = await this.transport.send(call);
    if (itemMissing(answer, call)) return undefined;
    return tagged(answer, (answer.body as { item: Item }).item);
  }

  /** A JSON merge patch (RFC 7396): `null` removes an attribute. */
  async patch(key: PrimaryKey, patch: Item, conditions: Pick<Conditions, 'ifMatch'> = {}): Promise<Tagged<Item>> {
    const call = { ...this.patchCall(key, patch), headers: conditionHeaders(conditions), acceptAfterDrop: [404, 412] };
    const answer = await this.transport.send(call);
    if (answer.status !== 404 && answer.status !== 412) return tagged(answer, (answer.body as { item: Item }).item);
    // Gone, perhaps after this patch made its change.
    if (itemMissing(answer, call)) throw outcomeUnknown(answer, call, 'there is no item with that key');
    return this.confirm(answer, call, 'the item there does not hold what this patch changed', async () => {
      const now = await this.current(key);
      return now && holdsPatch(now.value.item, patch) ? { value: now.value.item, etag: now.etag } : undefined;
    });
  }

  async delete(key: PrimaryKey, conditions: Pick<Conditions, 'ifMatch'> = {}): Promise<void> {
    const headers = conditionHeaders(conditions);
    const path = `${this.path}/item`;
    const call = { method: 'DELETE', path, query: keyQuery(key), headers, acceptAfterDrop: [404, 412] };
    const answer = await this.transport.send(call);
    // The repeat's 404, or no item behind its 412: gone, as asked.
    if (answer.status === 404 && itemMissing(answer, call)) return;
    if (answer.status !== 412) return;
    const why = 'an item with that key is there, perhaps written again since';
    await this.confirm(answer, call, why, async () => ((await this.current(key)) === undefined ? true : undefined));
  }

  /** Writes any number of items, 1,000 (and at most 4 MiB) a request; every item is written or in `failed`. */
  batchPut(items: readonly Item[]): Promise<BatchWriteResult> {
    return batchPut(this.transport, `${this.path}/items/batch`, items);
  }

  /** Up to 100 items by key: those found, in key order, and the keys the collection lacks. */
  async batchGet(keys: readonly PrimaryKey[], options: { fields?: readonly string[] } = {}): Promise<BatchGetResult> {
    const body = { keys, ...(options.fields && { fields: options.fields }) };
    const answer = await this.transport.send({ method: 'POST', path: `${this.path}/items/batch-get`, body });
    return answer.body as BatchGetResult;
  }

  /** Every key deleted or in `failed`; after a dropped connection, a key the repeat finds gone counts as deleted. */
  async batchDelete(keys: readonly PrimaryKey[]): Promise<BatchDeleteResult> {
    const path = `${this.path}/items/batch-delete`;
    const answer = await this.transport.send({ method: 'POST', path, body: { keys } });
    const result = answer.body as BatchDeleteResult;
    if (!answer.afterDrop) return result;
    const failed = result.failed.filter((failure) => failure.error.code !== 'item_not_found');
    return { deleted: result.deleted + result.failed.length - failed.length, failed };
  }

  /** Which shards hold (or would hold) items whose ordered value is `key`. */
  async route(key: string | number): Promise<RouteResult> {
    const query = { key: String(key) };
    return (await this.transport.send({ method: 'GET', path: `${this.path}/route`, query })).body as RouteResult;
  }

  /** Every page of a listing in order, following `nextCursor` until the end: `for await (const page of …)`. */
  pages(query: ListQuery = {}, options: { pageSize?: number } = {}): AsyncGenerator<ListPage> {
    return listingPages<ListPage>(this.transport, `${this.path}/items`, query, options.pageSize);
  }

  /** Every item of a listing in order: `for await (const item of albums.list({prefix: 'a'}))`. */
  async *list(query: ListQuery = {}, options: { pageSize?: number } = {}): AsyncGenerator<Item> {
    for await (const page of this.pages(query, options)) yield* page.items;
  }

  /** One group of a grouped collection (docs/groups.md): its listing and its shards. */
  group(value: GroupValue): GroupClient {
    return new GroupClient(this.transport, this.path, this.name, value);
  }

  /** A refused repeat's result when `read` finds the change made; else `outcome_unknown`, also when it cannot read. */
  private async confirm<T>(
    answer: Answer,
    call: Pick<Call, 'method' | 'path'>,
    why: string,
    read: () => Promise<T | undefined>,
  ) {
    let result: T | undefined;
    try {
      result = await read();
    } catch (error) {
      throw outcomeUnknown(answer, call, `the item could not be read (${(error as Error).message})`);
    }
    if (result === undefined) throw outcomeUnknown(answer, call, why);
    return result;
  }

  /** The item now, or undefined: an empty merge patch writes nothing and reads strongly consistent (a GET may not). */
  private async current(key: PrimaryKey): Promise<Tagged<WriteResult> | undefined> {
    const call = { ...this.patchCall(key, {}), accept: [404] };
    const answer = await this.transport.send(call);
    return itemMissing(answer, call) ? undefined : tagged(answer, answer.body as WriteResult);
  }

  /** The primary key of an item, by the attribute names the collection reports. */
  private async keyOf(item: Item): Promise<PrimaryKey | undefined> {
    const names = (await this.info()).primaryKey.map((attribute) => attribute.name);
    if (!names.every((name) => Object.hasOwn(item, name))) return undefined;
    return Object.fromEntries(names.map((name) => [name, item[name] as PrimaryKey[string]]));
  }

  private patchCall(key: PrimaryKey, patch: Item) {
    const path = `${this.path}/item`;
    return { method: 'PATCH', path, query: keyQuery(key), body: patch, contentType: 'application/merge-patch+json' };
  }
}

function tagged<T>(answer: Answer, value: T): Tagged<T> {
  const consumed = consumedBy(answer.headers);
  return { value, etag: answer.headers.get('etag') ?? undefined, ...(consumed && { consumed }) };
}

function consumedBy(headers: Headers): Consumed | undefined {
  const read = headers.get('x-consumed-rcu');
  const write = headers.get('x-consumed-wcu');
  if (read === null && write === null) return undefined;
  return { readUnits: Number(read ?? 0), writeUnits: Number(write ?? 0) };
}

function conditionHeaders(conditions: Conditions): Record<string, string> {
  return {
    ...(conditions.ifMatch !== undefined && { 'if-match': conditions.ifMatch }),
    ...(conditions.ifNoneMatch !== undefined && { 'if-none-match': conditions.ifNoneMatch }),
  };
}

function keyQuery(key: PrimaryKey): Record<string, string> {
  return Object.fromEntries(Object.entries(key).map(([name, value]) => [name, String(value)]));
}

/** A 404 that says the item is missing; any other 404 (the collection's) is thrown. */
function itemMissing(answer: Answer, call: Pick<Call, 'method' | 'path'>): boolean {
  if (answer.status !== 404) return false;
  const error = errorOf(answer, call);
  if (error.code === 'item_not_found') return true;
  throw error;
}
