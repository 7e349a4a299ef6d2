import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { unstable_startWorker } from 'wrangler';
import { buildLambdaFolder } from '../../../devtools/build-lambda';
import type { Fetcher } from '../../support/http';
import { NEXT_MINUTE_PATH } from './moved-clock';
import { lambdaEvent, resultToResponse, type EventKind, type HttpCall, type LambdaResult } from './lambda-events';

export const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * DynamoDB Local keeps one database per access key and region: every runtime uses
 * the key the test service uses, whatever AWS keys the developer's environment holds.
 */
export const LOCAL_KEYS = { AWS_ACCESS_KEY_ID: 'shardline', AWS_SECRET_ACCESS_KEY: 'shardline', AWS_SESSION_TOKEN: '' };

/** Workers and Lambda refuse to start without a CURSOR_SECRET of 32 bytes or more; tests may name their own. */
export const TEST_CURSOR_SECRET = { CURSOR_SECRET: 'runtime-tests-cursor-secret-of-32-bytes-or-more' };

/** A runtime under test, answering real requests; `close` stops whatever it started. */
export interface RunningRuntime extends Fetcher {
  readonly name: string;
  close(): Promise<void>;
}

/** The Node runtime's app behind a real HTTP server (what `npm start` runs), on a free loopback port. */
export async function startNodeServer(app: {
  fetch: (request: Request) => Response | Promise<Response>;
}): Promise<RunningRuntime> {
  const server = await new Promise<ReturnType<typeof serve>>((resolveServer) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolveServer(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    name: 'node',
    request: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
    close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
  };
}

/**
 * The Worker in workerd, as `wrangler dev` runs it (wrangler.toml: the custom
 * build, the config alias, static assets), with `vars` overriding the file's.
 * Requests go over HTTP to wrangler's local server.
 *
 * With `cronConfigBundle` (a file of writeConfigBundle's), the Worker is built from wrangler.toml's
 * name, date and flags alone, over that config, and `scheduled` reaches it: wrangler dev's trigger
 * route calls the scheduled() of the Worker in front, which with [assets] is the assets router. Its
 * entry is then moved-clock-worker.ts, the Worker's own behind a clock that `nextMinute` moves.
 */
export async function startWorkerRuntime(
  vars: Record<string, string>,
  options: { cronConfigBundle?: string } = {},
): Promise<WorkerRuntime> {
  const worker = await unstable_startWorker({
    ...(options.cronConfigBundle
      ? {
          config: withoutAssets(),
          entrypoint: resolve(import.meta.dirname, 'moved-clock-worker.ts'),
          build: {
            alias: {
              'shardline:config-bundle': options.cronConfigBundle,
              '../locales/index.js': resolve(ROOT, 'src/runtime/zod-locales.ts'),
            },
          },
        }
      : { config: resolve(ROOT, 'wrangler.toml') }),
    bindings: Object.fromEntries(
      Object.entries({ ...LOCAL_KEYS, ...TEST_CURSOR_SECRET, ...vars }).map(([name, value]) => [
        name,
        { type: 'plain_text', value },
      ]),
    ),
    sendMetrics: false,
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      watch: false,
      persist: false,
      logLevel: 'warn',
    },
  });
  await worker.ready;
  const url = await worker.url;
  return {
    name: 'worker',
    request: (path, init) => fetch(new URL(path, url), init),
    // wrangler dev's trigger route: workerd calls scheduled() with a ScheduledController, as a Cron Trigger does.
    scheduled: async (cron) => {
      const response = await fetch(new URL(`/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}`, url));
      return `${response.status} ${await response.text()}`;
    },
    nextMinute: async (minuteMs) => {
      const response = await fetch(new URL(`${NEXT_MINUTE_PATH}?minuteMs=${minuteMs}`, url), { method: 'POST' });
      if (!response.ok) throw new Error(`the Worker's clock did not move (${response.status}): built without it?`);
      return ((await response.json()) as { now: number }).now;
    },
    close: () => worker.dispose(),
  };
}

/** wrangler.toml's name, compatibility date and flags, in a file of their own. */
function withoutAssets(): string {
  const kept = readFileSync(resolve(ROOT, 'wrangler.toml'), 'utf8')
    .split('\n')
    .filter((line) => /^(name|compatibility_date|compatibility_flags) = /.test(line));
  const file = join(mkdtempSync(join(tmpdir(), 'shardline-wrangler-')), 'wrangler.toml');
  writeFileSync(file, `${kept.join('\n')}\n`);
  return file;
}

export interface WorkerRuntime extends RunningRuntime {
  /** Fires the Worker's Cron Trigger handler; the trigger route's status and text. */
  scheduled(cron: string): Promise<string>;
  /** With `cronConfigBundle`: moves the Worker's clock on to the start of its next minute of `minuteMs` (returned). */
  nextMinute(minuteMs: number): Promise<number>;
}

export type LambdaHandler = (event: unknown, context: unknown) => Promise<LambdaResult>;

let built: Promise<string> | undefined;
let instances = 0;

/** Builds the Lambda folder once per test file, with the code `npm run build` uses, into a temporary folder. */
export function buildLambdaOnce(): Promise<string> {
  built ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'shardline-lambda-'));
    await buildLambdaFolder(outDir, resolve(ROOT, 'config/shardline.config.json'));
    return join(outDir, 'index.mjs');
  })();
  return built;
}

export interface LambdaRuntime extends RunningRuntime {
  readonly handler: LambdaHandler;
  /** Sends one request as the given kind of event and turns the result back into a Response. */
  invoke(kind: EventKind, call: HttpCall): Promise<Response>;
}

/**
 * Imports the built bundle as Lambda's Node runtime does (a fresh module instance,
 * its init reading `env` from process.env), and invokes its `handler`.
 */
export async function loadLambdaRuntime(bundleFile: string, env: Record<string, string>): Promise<LambdaRuntime> {
  const saved = { ...process.env };
  Object.assign(process.env, LOCAL_KEYS, TEST_CURSOR_SECRET, env);
  let handler: LambdaHandler;
  try {
    ({ handler } = (await import(`${pathToFileURL(bundleFile).href}?instance=${++instances}`)) as {
      handler: LambdaHandler;
    });
  } finally {
    for (const name of Object.keys({ ...LOCAL_KEYS, ...TEST_CURSOR_SECRET, ...env }))
      if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
  const context = { functionName: 'shardline', awsRequestId: 'test', getRemainingTimeInMillis: () => 30_000 };
  const invoke = async (kind: EventKind, call: HttpCall) =>
    resultToResponse(await handler(lambdaEvent(kind, call), context));
  return {
    name: 'lambda',
    handler,
    invoke,
    request: async (path, init = {}) => {
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const body = init.body === undefined || init.body === null ? undefined : String(init.body);
      return invoke('http-v2', { method: init.method ?? 'GET', path, headers, ...(body !== undefined && { body }) });
    },
    close: async () => {},
  };
}
