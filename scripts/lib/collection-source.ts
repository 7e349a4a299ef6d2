import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { resolveConfig } from '../../src/config/config';
import type { Normalization } from '../../src/core/normalize';
import { startEmbeddedEngine, type EmbeddedEngine } from '../../src/runtime/embedded-engine';
import { readSettings, wantsEmbeddedEngine, type EnvMap } from '../../src/runtime/settings';
import { createDynamoClients } from '../../src/store/client';
import type { ScanTarget } from './collection-scan';

export interface OpenCollection {
  readonly target: ScanTarget;
  readonly normalization: Normalization;
  readonly client: DynamoDBDocumentClient;
  /** Where the data is read from, for the report. */
  readonly where: string;
  close(): Promise<void>;
}

/**
 * Resolves `--collection NAME` exactly as the server does (src/runtime/node.ts):
 * SHARDLINE_CONFIG or config/shardline.config.json, TABLE_NAME, DYNAMODB_ENDPOINT,
 * AWS_REGION; with neither of the last two, the embedded engine's data directory
 * (./data or SHARDLINE_DATA_DIR), which only one process can open at a time.
 */
export async function openCollection(name: string, env: EnvMap): Promise<OpenCollection> {
  const settings = readSettings(env);
  const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const configPath = resolve(settings.configPath ?? resolve(projectRoot, 'config/shardline.config.json'));
  const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
  const collections = resolveConfig(readJson(configPath), {
    ...(settings.tableName && { tableName: settings.tableName }),
    readBoundaries: (file) => readJson(resolve(dirname(configPath), file)),
  });
  const collection = collections.find((c) => c.name === name);
  if (!collection) {
    throw new Error(
      `no collection ${JSON.stringify(name)} in ${configPath} (it has: ${collections.map((c) => c.name).join(', ')})`,
    );
  }

  let engine: EmbeddedEngine | undefined;
  let endpoint = settings.endpoint;
  let where = endpoint ?? `AWS ${settings.region}`;
  if (wantsEmbeddedEngine(settings)) {
    const dataDir = resolve(env.SHARDLINE_DATA_DIR ?? 'data');
    try {
      engine = await startEmbeddedEngine(dataDir);
    } catch (error) {
      throw new Error(
        `cannot open the embedded engine's data in ${dataDir} (${(error as Error).message}); ` +
          'if the server is running on it, stop it, or point DYNAMODB_ENDPOINT at an engine both can reach',
      );
    }
    endpoint = engine.endpoint;
    where = `the embedded engine (data in ${dataDir})`;
  }
  const clients = createDynamoClients({
    ...(endpoint && { endpoint }),
    ...(settings.region && { region: settings.region }),
    // As the server: local engines take any credentials; AWS uses the SDK's chain.
    ...(endpoint &&
      !env.AWS_ACCESS_KEY_ID && { credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' } }),
  });
  return {
    target: {
      table: collection.table,
      index: collection.index,
      shardKeyAttribute: collection.shardKeyAttribute,
      indexKeyAttribute: collection.indexKeyAttribute,
      prefix: collection.prefix,
    },
    normalization: collection.normalization,
    client: clients.doc,
    where,
    async close() {
      clients.raw.destroy();
      await engine?.close();
    },
  };
}
