import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTable, shardMapsOf } from './service';
import { openDataEngine } from './data-engine';
import { readSettings, type EnvMap, type Settings } from './settings';

/** What a Node tool (reshard, boundaries --collection) works with, opened as the server opens it. */
export type OpenEnvironment = Awaited<ReturnType<typeof openEnvironment>>;

/**
 * Opens the config and the table exactly as `npm start` does. The embedded engine's data is
 * reached through the running server's engine when one has it open (only one process can open
 * it; its key is read from the data dir, so only who may read that reaches it), else opened here
 * (data-engine.ts).
 */
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
    maps: shardMapsOf(dynamo, collections, settings),
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
