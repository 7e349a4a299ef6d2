import { runScript, stopChild, type ScriptRun } from '../../devtools/child-process';
import { freePort } from '../../devtools/dynamodb-local';
import { startNodeServer, type NodeServer } from '../support/node-server';

/** Settings every process of one reshard test shares: the table, the engine, short waits. */
export function sharedEnv(endpoint: string, table: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: table,
    CURSOR_SECRET: 'reshard-test-secret-reshard-test-secret',
    AWS_ACCESS_KEY_ID: 'shardline',
    AWS_SECRET_ACCESS_KEY: 'shardline',
    // Short map TTL and deadline: each phase waits 3 × TTL + deadline + 1 s.
    SHARDLINE_MAP_TTL_MS: '250',
    REQUEST_TIMEOUT_MS: '15000',
    SHARDLINE_RESHARD_LEASE_MS: '2000',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...extra,
  };
  delete env.AWS_REGION;
  delete env.AWS_DEFAULT_REGION;
  return env;
}

/** What a test's in-process `reshardCli` reads: the engine, the table, its config file, short waits. */
export function cliEnv(
  endpoint: string,
  table: string,
  configFile: string,
  extra: Record<string, string>,
): Record<string, string> {
  return {
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: table,
    SHARDLINE_CONFIG: configFile,
    AWS_ACCESS_KEY_ID: 'shardline',
    AWS_SECRET_ACCESS_KEY: 'shardline',
    SHARDLINE_RESHARD_LEASE_MS: '1000',
    ...extra,
  };
}

export interface Router extends NodeServer {
  stop(): Promise<void>;
}

/** One router process (`src/runtime/node/main.ts`), as deployed: never restarted during a test. */
export async function startRouter(env: NodeJS.ProcessEnv): Promise<Router> {
  const server = await startNodeServer(env, await freePort());
  return { ...server, stop: () => stopChild(server.child) };
}

/** `npm run reshard -- ...` as an operator runs it, in its own process. */
export function runReshard(env: NodeJS.ProcessEnv, args: string[]): ScriptRun {
  return runScript('scripts/reshard.ts', env, args);
}
