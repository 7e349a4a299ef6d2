import type { ExactNumber } from '../core/exact-number.js';
import type { operations } from './api/index.js';
import type { Item, JsonOf } from './collection.js';
import { listingPages } from './listing.js';
import { ShardlineClientError, type Transport } from './transport.js';

/** A group's value: its text, or a number group's number (a bigint or an ExactNumber keeps every digit). */
export type GroupValue = string | number | bigint | ExactNumber;
/** A group listing's filters, order and projection within the group (`cursor` and `limit` are the iterator's). */
export type GroupListQuery = Omit<NonNullable<operations['listGroupItems']['parameters']['query']>, 'cursor'>;
export type GroupListPage = JsonOf<'listGroupItems', 200>;
/** The group's shards, write shards and phase, as the router that answered routes by them. */
export type GroupInfo = JsonOf<'getGroup', 200>;

/** One group of a grouped collection: `orders.group('c123').list()`, listed as the collection is, within the group. */
export class GroupClient {
  /** The group's text (sent encoded). */
  readonly value: string;
  private readonly path: string;

  constructor(
    private readonly transport: Transport,
    collectionPath: string,
    readonly collection: string,
    value: GroupValue,
  ) {
    this.value = String(value);
    this.path = `${collectionPath}/groups/${groupSegment(this.value)}`;
  }

  /** The group's shards and phase (`GET /collections/{c}/groups/{group}`). */
  async info(): Promise<GroupInfo> {
    return (await this.transport.send({ method: 'GET', path: this.path })).body as GroupInfo;
  }

  /** The same as `info()`. */
  describe(): Promise<GroupInfo> {
    return this.info();
  }

  /** Every page of the group's listing in order, following `nextCursor` until the end. */
  pages(query: GroupListQuery = {}, options: { pageSize?: number } = {}): AsyncGenerator<GroupListPage> {
    return listingPages<GroupListPage>(this.transport, `${this.path}/items`, query, options.pageSize);
  }

  /** Every item of the group in order: `for await (const order of orders.group('c123').list())`. */
  async *list(query: GroupListQuery = {}, options: { pageSize?: number } = {}): AsyncGenerator<Item> {
    for await (const page of this.pages(query, options)) yield* page.items;
  }
}

/**
 * The group as one path segment, percent-encoded as UTF-8. A URL resolves `.` and `..` (even encoded) as
 * steps through the path, so they would name another route: refused before any request.
 */
function groupSegment(text: string): string {
  const refuse = (why: string) =>
    new ShardlineClientError(undefined, 'invalid_request', `group ${JSON.stringify(text)}: ${why}`, { group: text });
  if (text === '') throw refuse('a group value is never empty');
  if (text === '.' || text === '..') throw refuse('no URL path can name it (it reads as a step through the path)');
  try {
    return encodeURIComponent(text);
  } catch {
    throw refuse('it holds an unpaired surrogate, which UTF-8 cannot encode');
  }
}
