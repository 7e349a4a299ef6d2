import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../devtools/dynamodb-local';
import { waitUntilReady } from '../../devtools/wait-until';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

export interface ServerProcess {
  readonly base: string;
  readonly child: ChildProcess;
  /** The server's memory, after a full GC (see load-probe.ts). */
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /** More Node flags (`--cpu-prof`). */
  readonly execArgv?: readonly string[];
  /** Reads the server's stdout (its request log) and drops it, instead of printing it. */
  readonly drainLogs?: boolean;
  /** Another checkout of shardline whose server to run (a bench's code before a change); this one by default. */
  readonly root?: string;
  /** Another Node binary to run it with (Node 22 against this process's Node 24); this process's by default. */
  readonly node?: string;
}

/**
 * The Node server (`src/runtime/node/main.ts`) in its own process, as `npm start` runs it, over
 * `endpoint` (a new table) or its embedded engine in a fresh data directory; healthy when
 * this resolves. It answers memory questions over IPC (scripts/load-probe.ts).
 */
export async function startServerProcess(
  endpoint: string | undefined,
  env: NodeJS.ProcessEnv = {},
  how: ServerProcessOptions = {},
) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'shardline-load-'));
  const base = `http://127.0.0.1:${port}`;
  const child = fork(resolve(how.root ?? ROOT, 'src/runtime/node/main.ts'), [], {
    ...(how.node && { execPath: how.node }),
    execArgv: [
      '--expose-gc',
      '--import',
      'tsx',
      '--import',
      resolve(ROOT, 'scripts/load-probe.ts'),
      ...(how.execArgv ?? []),
    ],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SHARDLINE_DATA_DIR: dataDir,
      CURSOR_SECRET: 'load',
      ...(endpoint && { TABLE_NAME: `load-${Date.now()}`, DYNAMODB_ENDPOINT: endpoint }),
      ...env,
    },
    stdio: ['ignore', how.drainLogs ? 'pipe' : 'inherit', 'inherit', 'ipc'],
  });
  // Read and dropped, as a log collector reads a service's stdout: the server pays for writing its lines.
  if (how.drainLogs) child.stdout?.resume();
  const server: ServerProcess = {
    base,
    child,
    memory: () => memoryOf(child),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((exited) => child.once('exit', exited));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilReady(async () => (await fetch(`${base}/healthz`)).status === 200, {
      intervalMs: 200,
      gaveUp: () => (child.exitCode === null ? undefined : `the server exited (${child.exitCode})`),
      timedOut: () => 'the server did not become healthy within 60 s',
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

function memoryOf(server: ChildProcess): Promise<Memory> {
  return new Promise((resolveMemory, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not report its memory')), 10_000);
    const onMessage = (message: unknown) => {
      const memory = (message as { memory?: Memory }).memory;
      if (!memory) return;
      clearTimeout(timer);
      server.off('message', onMessage);
      resolveMemory(memory);
    };
    server.on('message', onMessage);
    server.send('memory');
  });
}
