import { randomBytes } from 'node:crypto';
import { resolveConfig, type ResolveOptions } from '../config/config';
import type { Collection } from '../core/collection';
import { createApp } from '../http/app';
import { createDynamoClients, type ClientOptions, type DynamoClients } from '../store/client';
import { DynamoStore } from '../store/dynamo-store';
import { ensureTable } from '../store/bootstrap';
import { DynamoMapStore } from '../store/map-store';
import { ShardMaps } from '../service/shard-maps';
import type { Settings } from './settings';

export interface Service {
  readonly app: ReturnType<typeof createApp>;
  readonly collections: readonly Collection[];
  readonly clients: DynamoClients;
  readonly store: DynamoStore;
  readonly maps: ShardMaps;
}

/**
 * Everything a runtime needs, built from settings and a config: the collections,
 * the SDK clients, the store and the Hono app. Runtimes differ only in where the
 * settings, the config and the endpoint come from.
 */
export function buildService(
  settings: Settings,
  config: unknown,
  options: ResolveOptions & {
    client?: ClientOptions;
    /** False where a request may not await I/O another one started (Workers). */
    shareMapRefresh?: boolean;
  } = {},
): Service {
  const collections = resolveConfig(config, {
    ...options,
    ...(settings.tableName && { tableName: settings.tableName }),
  });
  const clients = createDynamoClients({
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.region && { region: settings.region }),
    ...options.client,
  });
  const keyNames = new Map<string, string[]>();
  for (const collection of collections)
    keyNames.set(
      collection.table,
      collection.primaryKey.map(({ name }) => name),
    );
  const store = new DynamoStore(clients, { keyNames: (table) => keyNames.get(table) ?? [] });
  const maps = new ShardMaps(new DynamoMapStore(clients.doc), collections, {
    ttlMs: settings.mapTtlMs,
    ...(options.shareMapRefresh !== undefined && { shareRefresh: options.shareMapRefresh }),
    log: (message) => console.warn(message),
  });
  const app = createApp({
    collections,
    store,
    maps,
    cursorSecret: settings.cursorSecret ?? randomBytes(32).toString('base64url'),
    requestTimeoutMs: settings.requestTimeoutMs,
    security: {
      apiKeys: settings.apiKeys,
      corsOrigins: settings.corsOrigins,
      bodyLimits: { itemBytes: settings.maxItemBodyBytes, batchBytes: settings.maxBatchBodyBytes },
      ...(settings.rateLimitPerSecond !== undefined && { rateLimitPerSecond: settings.rateLimitPerSecond }),
    },
  });
  return { app, collections, clients, store, maps };
}

/**
 * Creates every table the collections use (when allowed), waits until they are
 * ACTIVE, and writes each collection's first shard map where the table has none.
 */
export async function prepareTables(service: Service, create: boolean): Promise<void> {
  const seen = new Set<string>();
  for (const collection of service.collections) {
    if (seen.has(collection.table)) continue;
    seen.add(collection.table);
    await ensureTable(service.clients.raw, collection, create);
  }
  await service.maps.initialize({});
}
