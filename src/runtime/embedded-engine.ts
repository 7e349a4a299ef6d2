import { createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { createRequire } from 'node:module';
import { ANY_ENGINE_KEYS, type AwsKeys } from './aws-keys';
import { ENGINE_SECRET_FILE, persistedSecret } from './cursor-secret';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { patchDynalite } from './dynalite-patches';

export interface EmbeddedEngine {
  readonly endpoint: string;
  readonly credentials: AwsKeys;
  close(): Promise<void>;
}

/** Credentials for an engine whose data directory holds `secret`. */
export function engineCredentials(secret: string): AwsKeys {
  return { accessKeyId: secret, secretAccessKey: secret };
}

/**
 * dynalite in this process on a loopback port, its LevelDB files in `dataDir` (in memory when undefined); shardline
 * avoids where it differs from DynamoDB (src/store/shard-query.ts).
 * A data directory's engine is closed to everyone else on the machine: the directory is mode 0700, the umask
 * owner-only (so LevelDB's files are 0600 too), and only requests signed with the directory's secret pass.
 */
export async function startEmbeddedEngine(dataDir: string | undefined): Promise<EmbeddedEngine> {
  // dynalite is CommonJS and only needed here: loaded lazily, never bundled for Workers or Lambda.
  const dynalite = createRequire(import.meta.url)('dynalite') as (options: object) => Server;
  // Else every query leaks an open LevelDB iterator, and a full disk's failed write kills the process.
  patchDynalite();
  let lock: DataDirLock | undefined;
  let credentials = ANY_ENGINE_KEYS; // in memory (tests only): it takes any key
  if (dataDir) {
    process.umask(process.umask(0o077) | 0o077);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700); // made before this version, or by hand
    lock = lockDataDir(dataDir);
    credentials = engineCredentials(persistedSecret(dataDir, ENGINE_SECRET_FILE));
  }
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(dataDir && { path: dataDir }) });
  if (dataDir) requireAccessKey(server, credentials.accessKeyId);
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
    credentials,
    close: async () => {
      await new Promise((closed) => server.close(closed));
      lock?.release();
    },
  };
}

const REFUSED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
});

/** Puts a front door before dynalite's handler: only a SigV4 `Credential=<accessKey>/…` of `accessKey` passes. */
function requireAccessKey(server: Server, accessKey: string): void {
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const expected = sha256(accessKey);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const presented = /Credential=([^/,\s]+)\//.exec(request.headers.authorization ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(sha256(presented), expected)) {
      for (const handler of handlers) handler.call(server, request, response);
      return;
    }
    request.resume();
    response
      .writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': Buffer.byteLength(REFUSED) })
      .end(REFUSED);
  });
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
