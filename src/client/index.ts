/**
 * `shardline/client`: a typed client for shardline's HTTP API, on `fetch` alone (Node 20+,
 * browsers, Workers, Deno, Bun). Its types are generated from the service's OpenAPI
 * document (src/client/api/, `npm run client:types`).
 *
 *   const shardline = createClient({ baseUrl: 'http://localhost:8787' });
 *   const albums = shardline.collection('albums');
 *   for await (const album of albums.list({ prefix: 'b' })) console.log(album.title);
 *   for await (const order of shardline.collection('orders').group('c123').list()) console.log(order.orderDate);
 */
import { CollectionClient } from './collection.js';
import { type ClientOptions, Transport } from './transport.js';

export { ExactNumber } from '../core/exact-number.js';
export type { components, operations, paths } from './api/index.js';
export type { BatchWriteResult } from './batches.js';
export type { GroupClient, GroupInfo, GroupListPage, GroupListQuery, GroupValue } from './group.js';
export type {
  BatchDeleteResult,
  BatchGetResult,
  CollectionClient,
  CollectionInfo,
  Conditions,
  Consumed,
  Item,
  ListPage,
  ListQuery,
  PrimaryKey,
  RouteResult,
  Tagged,
  WriteResult,
} from './collection.js';
export { type ClientOptions, ShardlineClientError } from './transport.js';

export interface ShardlineClient {
  collection(name: string): CollectionClient;
  /** The collections the service has (`GET /collections`). */
  collections(): Promise<unknown>;
}

export function createClient(options: ClientOptions): ShardlineClient {
  const transport = new Transport(options);
  return {
    collection: (name) => new CollectionClient(transport, name),
    collections: async () => (await transport.send({ method: 'GET', path: '/collections' })).body,
  };
}
