import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ClientOptions } from '../store/client';
import { clientKeys } from './aws-keys';
import { ENGINE_SECRET_FILE } from './cursor-secret';
import { engineCredentials, startEmbeddedEngine } from './embedded-engine';
import { wantsEmbeddedEngine, type Settings } from './settings';

/** File in the embedded engine's data directory: the endpoint (address only) of the server that has it open. */
export const ENDPOINT_FILE = 'shardline-endpoint';

/** Where a Node process reaches the data, as the settings say: an endpoint, AWS, or the embedded engine. */
export interface DataEngine {
  /** The SDK clients' endpoint and keys (none: the settings' region and the SDK's own chain). */
  readonly client: ClientOptions;
  /** For reports: `the embedded engine (data in …)`, the endpoint, or `AWS <region>`. */
  readonly where: string;
  /** The embedded engine's data directory, when the data is there. */
  readonly dataDir?: string;
  /** Closes the engine this process started (none otherwise). */
  close(): Promise<void>;
}

/**
 * The data as the settings place it. The embedded engine's data dir only one process can open: the `server`
 * leaves its engine's address there while it runs (its key is in the secret file, for whoever may read it);
 * a `tool` (reshard, boundaries --collection) goes through that engine when it answers, else opens its own.
 */
export async function openDataEngine(settings: Settings, user: 'server' | 'tool'): Promise<DataEngine> {
  if (!wantsEmbeddedEngine(settings)) {
    const keys = clientKeys(settings);
    return {
      client: { ...(settings.endpoint && { endpoint: settings.endpoint }), ...(keys && { credentials: keys }) },
      where: settings.endpoint ?? `AWS ${settings.region}`,
      close: async () => {},
    };
  }
  const dataDir = resolve(settings.dataDir);
  const running = user === 'tool' ? await runningServerEngine(dataDir) : undefined;
  if (running) {
    return {
      client: { endpoint: running, credentials: engineCredentials(readEngineSecret(dataDir)) },
      where: `the running server's embedded engine (data in ${dataDir})`,
      dataDir,
      close: async () => {},
    };
  }
  const engine = await startEmbeddedEngine(dataDir).catch((error: Error) => {
    if (user === 'server') throw error;
    throw new Error(
      `cannot open the embedded engine's data in ${dataDir} (${error.message}); ` +
        'point DYNAMODB_ENDPOINT at an engine both this and the server can reach',
    );
  });
  const endpointFile = join(dataDir, ENDPOINT_FILE);
  if (user === 'server') writeFileSync(endpointFile, `${engine.endpoint}\n`, { mode: 0o600 });
  return {
    client: { endpoint: engine.endpoint, credentials: engine.credentials },
    where: `the embedded engine (data in ${dataDir})`,
    dataDir,
    async close() {
      if (user === 'server') rmSync(endpointFile, { force: true });
      await engine.close();
    },
  };
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
