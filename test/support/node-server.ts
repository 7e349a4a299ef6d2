import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { inject } from 'vitest';
import { waitUntilReady } from '../../devtools/wait-until';

const ROOT = resolve(import.meta.dirname, '../..');

export interface NodeServer {
  readonly child: ChildProcess;
  readonly base: string;
  /** Everything it printed so far. */
  output(): string;
}

/** `src/runtime/node/main.ts` in a process of its own, as `npm start` runs it; resolves once it listens. */
export async function startNodeServer(env: NodeJS.ProcessEnv, port: number): Promise<NodeServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/runtime/node/main.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  await waitUntilReady(() => output.includes('listening on'), {
    intervalMs: 100,
    gaveUp: () => (child.exitCode === null ? undefined : `server did not start: ${output}`),
    timedOut: () => `server did not start: ${output}`,
  });
  return { child, base: `http://127.0.0.1:${port}`, output: () => output };
}

/** The Node server over DynamoDB Local, on a table of its own, with `settings` (CURSOR_SECRET, limits…) on top. */
export function startOnDynamoDbLocal(settings: Record<string, string>, port: number): Promise<NodeServer> {
  const env = {
    ...process.env,
    DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal,
    TABLE_NAME: `t-${randomUUID()}`,
    AWS_ACCESS_KEY_ID: 'shardline',
    AWS_SECRET_ACCESS_KEY: 'shardline',
  };
  return startNodeServer({ ...env, ...settings }, port);
}
