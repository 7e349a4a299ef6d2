import { mkdirSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { createRequire } from 'node:module';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { patchLevelIterators } from './dynalite-iterator-fix';

export interface EmbeddedEngine {
  readonly endpoint: string;
  close(): Promise<void>;
}

/**
 * dynalite, in this process, on a loopback port, keeping its LevelDB files in
 * `dataDir` (or in memory when `dataDir` is undefined). shardline avoids the
 * places where dynalite differs from DynamoDB (see src/store/shard-query.ts), so
 * through the API it answers as DynamoDB Local does. One process at a time may
 * open a data directory: a second one gets an Error naming the process that has it.
 */
export async function startEmbeddedEngine(dataDir: string | undefined): Promise<EmbeddedEngine> {
  // dynalite is CommonJS and only needed here: loaded lazily, never bundled for Workers or Lambda.
  const dynalite = createRequire(import.meta.url)('dynalite') as (options: object) => Server;
  patchLevelIterators(); // else every query leaks an open LevelDB iterator
  let lock: DataDirLock | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    lock = lockDataDir(dataDir);
  }
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(dataDir && { path: dataDir }) });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) =>
        server.close(() => {
          lock?.release();
          resolve();
        }),
      ),
  };
}
