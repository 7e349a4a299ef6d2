import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTable } from './service';
import { ENGINE_SECRET_FILE } from './cursor-secret';
import { type AwsKeys, clientKeys } from './aws-keys';
import { engineCredentials, startEmbeddedEngine, type EmbeddedEngine } from './embedded-engine';
import { readSettings, wantsEmbeddedEngine, type EnvMap, type Settings } from './settings';

/** File in the embedded engine's data directory: the endpoint (address only) of the server that has it open. */
export const ENDPOINT_FILE = 'shardline-endpoint';

/** What a Node tool (reshard, boundaries --collection) works with, opened as the server opens it. */
export type OpenEnvironment = Awaited<ReturnType<typeof openEnvironment>>;

/**
 * Opens the config and the table exactly as `npm start` does. The embedded engine's data is
 * reached through the running server's engine when one has it open (only one process can open
 * it; its key is read from the data dir, so only who may read that reaches it), else opened here.
 */
export async function openEnvironment(env: EnvMap) {
  const settings = readSettings(env);
  const { config, readBoundaries } = readConfigFiles(settings);
  let engine: EmbeddedEngine | undefined;
  let engineKey: AwsKeys | undefined;
  let endpoint = settings.endpoint;
  let where = endpoint ?? `AWS ${settings.region}`;
  if (wantsEmbeddedEngine(settings)) {
    const dataDir = resolve(settings.dataDir);
    const running = await runningServerEngine(dataDir);
    if (running) {
      endpoint = running;
      engineKey = engineCredentials(readEngineSecret(dataDir));
      where = `the running server's embedded engine (data in ${dataDir})`;
    } else {
      try {
        engine = await startEmbeddedEngine(dataDir);
      } catch (error) {
        throw new Error(
          `cannot open the embedded engine's data in ${dataDir} (${(error as Error).message}); ` +
            'point DYNAMODB_ENDPOINT at an engine both this and the server can reach',
        );
      }
      endpoint = engine.endpoint;
      engineKey = engine.credentials;
      where = `the embedded engine (data in ${dataDir})`;
    }
  }
  const keys = engineKey ?? clientKeys(settings);
  const { mapStore, ...table } = openTable(settings, config, {
    readBoundaries,
    client: { ...(endpoint && { endpoint }), ...(keys && { credentials: keys }) },
  });
  return {
    settings,
    ...table,
    maps: mapStore,
    /** Where the data is, for reports. */
    where,
    async close() {
      table.clients.raw.destroy();
      await engine?.close();
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

/** The running server's engine key; a server from before the engine had one left none: say so, not ENOENT. */
function readEngineSecret(dataDir: string): string {
  const file = join(dataDir, ENGINE_SECRET_FILE);
  if (!existsSync(file)) {
    throw new Error(
      `a server has the embedded engine in ${dataDir} open but left no ${ENGINE_SECRET_FILE} there ` +
        '(a shardline from before the engine required a key): restart that server with this version, then run again',
    );
  }
  return readFileSync(file, 'utf8').trim();
}

/** The endpoint of the server that has `dataDir` open, if it is still answering. */
async function runningServerEngine(dataDir: string): Promise<string | undefined> {
  const file = join(dataDir, ENDPOINT_FILE);
  if (!existsSync(file)) return undefined;
  const endpoint = readFileSync(file, 'utf8').trim();
  try {
    const response = await fetch(endpoint, { method: 'GET', signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return endpoint;
  } catch {
    return undefined; // left behind by a server that was killed
  }
}
