import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShardMaps } from '../service/shard-maps';
import { openTable } from './service';
import { openDataEngine } from './data-engine';
import { readSettings, type EnvMap, type Settings } from './settings';

/** What a Node tool (reshard, boundaries --collection) works with, opened as the server opens it. */
export type OpenEnvironment = Awaited<ReturnType<typeof openEnvironment>>;

/** Opens the config and the table as `npm start` does; the embedded engine's data as a `tool` (data-engine.ts). */
export async function openEnvironment(env: EnvMap) {
  const settings = readSettings(env);
  const { config, readBoundaries } = readConfigFiles(settings);
  const data = await openDataEngine(settings, 'tool');
  const { collections, dynamo } = openTable(settings, config, { readBoundaries, client: data.client });
  return {
    settings,
    collections,
    dynamo,
    /** The shard maps as a router sees them; a tool acting on a map reads it with `current`. */
    maps: new ShardMaps(dynamo.mapStore, collections, { ttlMs: settings.mapTtlMs }),
    /** Where the data is, for reports. */
    where: data.where,
    async close() {
      dynamo.destroy();
      await data.close();
    },
  };
}

/** The config file (SHARDLINE_CONFIG, else the project's) and a reader of the boundaries files it names. */
export function readConfigFiles(settings: Settings): { config: unknown; readBoundaries: (file: string) => unknown } {
  const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const configPath = resolve(settings.configPath ?? resolve(projectRoot, 'config/shardline.config.json'));
  const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
  return { config: readJson(configPath), readBoundaries: (file) => readJson(resolve(dirname(configPath), file)) };
}
