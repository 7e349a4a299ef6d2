import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { mountDocsAssets } from '../../http/docs/assets';
import { packageDocsAssets } from '../../http/docs/file-assets';
import { CURSOR_SECRET_FILE, persistedSecret } from '../cursor-secret';
import { openDataEngine } from '../data-engine';
import { startHealthListener, type HealthListener } from './health-listener';
import { answerClientErrors, arrivalBounds, describeListenError, NODE_MAX_HEADER_BYTES } from './node-http';
import { describeMaps } from './map-summary';
import { readConfigFiles } from '../open-environment';
import { prometheusExporter } from './prometheus';
import { buildService } from '../service';
import { readSettings, type Settings } from '../settings';

/** How long requests under way may take to finish once the server is asked to stop. */
const STOP_GRACE_MS = 5000;

/** `npm start`: the service on Node, over the embedded engine unless DYNAMODB_ENDPOINT or AWS_REGION is set. */
async function main(): Promise<void> {
  const settings = readSettings(process.env);
  const { config, readBoundaries } = readConfigFiles(settings);
  const data = await openDataEngine(settings, 'server');
  const effective: Settings = data.dataDir
    ? {
        ...settings,
        cursorSecret: settings.cursorSecret ?? persistedSecret(data.dataDir, CURSOR_SECRET_FILE),
        // One router is its whole fleet (its /stats says it all), and dynalite has no TTL:
        // load records would pile up in ./data. SHARDLINE_LOAD_RECORDS=true turns them on.
        loadRecords: settings.loadRecords ?? false,
      }
    : settings;
  if (effective.cursorSecret === undefined) {
    console.warn('shardline: CURSOR_SECRET is unset; cursors are signed with a random key and die with this process');
  }

  const service = buildService(effective, config, {
    readBoundaries,
    metrics: prometheusExporter,
    client: data.client,
    shedLoad: true,
  });
  mountDocsAssets(service.app, packageDocsAssets());
  await service.ready();

  const server = serve(
    {
      fetch: service.app.fetch,
      port: settings.port,
      hostname: settings.host,
      serverOptions: { maxHeaderSize: NODE_MAX_HEADER_BYTES, ...arrivalBounds(settings.bodyTimeoutMs) },
    },
    (info) => {
      console.log(`shardline listening on http://${settings.host}:${info.port} over ${data.where}`);
      void describeMaps(service).then((lines) => console.log(`collections (the shard maps in force):\n${lines}`));
    },
  ) as Server;
  answerClientErrors(server);
  let health: HealthListener | undefined;
  if (settings.healthPort !== undefined) {
    health = await startHealthListener(settings.host, settings.healthPort, async () => {
      const answer = await service.app.fetch(new Request('http://health.internal/healthz'));
      return { status: answer.status, body: await answer.text() };
    });
    console.log(`shardline health on http://${settings.host}:${health.port}/healthz`);
  }
  // The fleet's load (docs/autopilot.md): this router's ended minutes, written once each.
  const load = service.load;
  if (load) setInterval(() => void (load.due() && load.flush()), Math.min(load.minuteMs, 5000)).unref();
  const exit = async (code: number) => {
    await data.close();
    process.exit(code);
  };
  server.once('error', (error: NodeJS.ErrnoException) => {
    console.error(describeListenError(error, settings.host, settings.port));
    void exit(1);
  });

  // SIGTERM (`npm start` execs this process, so the signal lands here) or SIGINT: requests under way finish,
  // idle keep-alive connections close; after the grace, the rest.
  const stop = (): void => {
    void health?.close();
    server.close(() => void exit(0));
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
      void exit(0);
    }, STOP_GRACE_MS).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`shardline failed to start: ${(error as Error).message}`);
  process.exit(1);
});
