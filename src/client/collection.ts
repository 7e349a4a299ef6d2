import type { components, operations } from './api/index.js';
import { batchPut, type BatchWriteResult } from './batches.js';
import { type Answer, ShardlineClientError, type Transport } from './transport.js';

type Schemas = components['schemas'];
type JsonOf<Op extends keyof operations, Status extends number> =
  operations[Op]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }> ? Body : never;

/** An item as shardline stores and returns it: primary key, ordered field(s), any attributes. */
export type Item = Schemas['Item'];
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
}

/** Every call of one collection. Errors are ShardlineClientError; 429 and 503 are retried first. */
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
    const answer = await this.transport.send({ method: 'PUT', path: `${this.path}/items`, body: item, headers });
    return tagged(answer, answer.body as WriteResult);
  }

  /** The item, or undefined when the collection has none with that key. */
  async get(key: PrimaryKey, options: { fields?: readonly string[] } = {}): Promise<Tagged<Item> | undefined> {
    const query = { ...keyQuery(key), fields: options.fields?.join(',') };
    const answer = await this.transport.send({ method: 'GET', path: `${this.path}/item`, query, accept: [404] });
    if (answer.status === 404) {
      const error = errorOf(answer.status, answer.body);
      if (error.code === 'item_not_found') return undefined;
      throw error;
    }
    return tagged(answer, (answer.body as { item: Item }).item);
  }

  /** A JSON merge patch (RFC 7396): `null` removes an attribute. */
  async patch(key: PrimaryKey, patch: Item, conditions: Pick<Conditions, 'ifMatch'> = {}): Promise<Tagged<Item>> {
    const answer = await this.transport.send({
      method: 'PATCH',
      path: `${this.path}/item`,
      query: keyQuery(key),
      body: patch,
      contentType: 'application/merge-patch+json',
      headers: conditionHeaders(conditions),
    });
    return tagged(answer, (answer.body as { item: Item }).item);
  }

  async delete(key: PrimaryKey, conditions: Pick<Conditions, 'ifMatch'> = {}): Promise<void> {
    const headers = conditionHeaders(conditions);
    await this.transport.send({ method: 'DELETE', path: `${this.path}/item`, query: keyQuery(key), headers });
  }

  /** Writes any number of items, 1,000 (and at most 4 MiB) a request; every item is written or in `failed`. */
  batchPut(items: readonly Item[]): Promise<BatchWriteResult> {
    return batchPut(this.transport, `${this.path}/items/batch`, items);
  }

  /** Up to 100 items by key: those found, in key order, and the keys the collection lacks. */
  batchGet(keys: readonly PrimaryKey[], options: { fields?: readonly string[] } = {}): Promise<BatchGetResult> {
    return this.post('/items/batch-get', { keys, ...(options.fields && { fields: options.fields }) });
  }

  batchDelete(keys: readonly PrimaryKey[]): Promise<BatchDeleteResult> {
    return this.post('/items/batch-delete', { keys });
  }

  /** Which shards hold (or would hold) items whose ordered value is `key`. */
  async route(key: string | number): Promise<RouteResult> {
    const query = { key: String(key) };
    return (await this.transport.send({ method: 'GET', path: `${this.path}/route`, query })).body as RouteResult;
  }

  /** Every page of a listing in order, following `nextCursor` until the end: `for await (const page of …)`. */
  async *pages(query: ListQuery = {}, options: { pageSize?: number } = {}): AsyncGenerator<ListPage> {
    let cursor: string | undefined;
    do {
      const answer = await this.transport.send({
        method: 'GET',
        path: `${this.path}/items`,
        query: { ...listQuery(query), limit: String(options.pageSize ?? 1000), cursor },
      });
      const page = answer.body as ListPage;
      yield page;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Every item of a listing in order: `for await (const item of albums.list({prefix: 'a'}))`. */
  async *list(query: ListQuery = {}, options: { pageSize?: number } = {}): AsyncGenerator<Item> {
    for await (const page of this.pages(query, options)) yield* page.items;
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    return (await this.transport.send({ method: 'POST', path: `${this.path}${path}`, body })).body as T;
  }
}

function tagged<T>(answer: Answer, value: T): Tagged<T> {
  return { value, etag: answer.headers.get('etag') ?? undefined };
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

function listQuery(query: ListQuery): Record<string, string | undefined> {
  const { fields, ...rest } = query as ListQuery & { fields?: string | readonly string[] };
  const text = Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, value?.toString()]));
  return { ...text, fields: Array.isArray(fields) ? fields.join(',') : (fields as string | undefined) };
}

function errorOf(status: number, body: unknown): ShardlineClientError {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error ?? {};
  return new ShardlineClientError(
    status,
    String(error.code ?? `http_${status}`),
    String(error.message ?? status),
    error,
  );
}
