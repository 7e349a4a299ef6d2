import { randomBytes } from 'node:crypto';
import { resolveConfig, type ResolveOptions } from '../config/config';
import type { Collection } from '../core/collection';
import { createApp } from '../http/app';
import { createDynamoClients, type ClientOptions, type DynamoClients } from '../store/client';
import { DynamoStore } from '../store/dynamo-store';
import { ensureTable } from '../store/bootstrap';
import type { Settings } from './settings';

export interface Service {
  readonly app: ReturnType<typeof createApp>;
  readonly collections: readonly Collection[];
  readonly clients: DynamoClients;
}

/**
 * Everything a runtime needs, built from settings and a config: the collections,
 * the SDK clients, the store and the Hono app. Runtimes differ only in where the
 * settings, the config and the endpoint come from.
 */
export function buildService(
  settings: Settings,
  config: unknown,
  options: ResolveOptions & { client?: ClientOptions } = {},
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
  const app = createApp({
    collections,
    store,
    cursorSecret: settings.cursorSecret ?? randomBytes(32).toString('base64url'),
    requestTimeoutMs: settings.requestTimeoutMs,
    security: {
      apiKeys: settings.apiKeys,
      corsOrigins: settings.corsOrigins,
      bodyLimits: { itemBytes: settings.maxItemBodyBytes, batchBytes: settings.maxBatchBodyBytes },
      ...(settings.rateLimitPerSecond !== undefined && { rateLimitPerSecond: settings.rateLimitPerSecond }),
    },
  });
  return { app, collections, clients };
}

/** Creates every table the collections use (when allowed) and waits until they are ACTIVE. */
export async function prepareTables(service: Service, create: boolean): Promise<void> {
  const seen = new Set<string>();
  for (const collection of service.collections) {
    if (seen.has(collection.table)) continue;
    seen.add(collection.table);
    await ensureTable(service.clients.raw, collection, create);
  }
}
