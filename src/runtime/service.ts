import { HedgePolicy } from '../core/hedge-policy';
import { randomBytes } from 'node:crypto';
import { resolveConfig, type ResolveOptions } from '../config/config';
import type { CollectionSpec } from '../core/collection';
import { createApp } from '../http/app';
import type { ObservabilityOptions } from '../http/env';
import type { Gates } from '../http/gates';
import { fanOut, type MetricsRecorder } from '../service/metrics/recorder';
import { RouterMetrics } from '../service/metrics/router-metrics';
import type { ClientOptions } from '../store/client';
import { keepsLoadRecords } from '../store/load-store';
import { DynamoTable } from '../store/table';
import { LoadRecorder } from '../service/metrics/load-recorder';
import { ShardMaps } from '../service/shard-maps';
import { createShardline } from '../service/shardline';
import type { Settings } from './settings';

export interface Service {
  readonly app: ReturnType<typeof createApp>;
  readonly collections: readonly CollectionSpec[];
  /** The process's one door to DynamoDB (store/table.ts). */
  readonly dynamo: DynamoTable;
  readonly maps: ShardMaps;
  /** This router's part of the fleet's load (SHARDLINE_LOAD_RECORDS): the runtime flushes it. */
  readonly load?: LoadRecorder;
  /** prepareTables until it once succeeds; no promise is shared, as a Worker may not await another request's I/O. */
  readonly ready: () => Promise<void>;
}

type OpenOptions = Pick<ResolveOptions, 'readBoundaries' | 'source'> & { client?: ClientOptions };

/** The config's collections and their table, as every runtime and CLI opens them; `client` overrides the settings'. */
export function openTable(settings: Settings, config: unknown, options: OpenOptions = {}) {
  const collections = resolveConfig(config, {
    ...(options.readBoundaries && { readBoundaries: options.readBoundaries }),
    // Each problem's line names the file, as the operator gave it (SHARDLINE_CONFIG) or the default.
    source: options.source ?? settings.configPath ?? 'config/shardline.config.json',
    ...(settings.tableName && { tableName: settings.tableName }),
  });
  const dynamo = new DynamoTable({
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.region && { region: settings.region }),
    ...options.client,
    ...(settings.hedge && { hedge: new HedgePolicy() }),
  });
  return { collections, dynamo };
}

/** Everything a runtime needs: runtimes differ only in where the settings, config and endpoint come from. */
export function buildService(
  settings: Settings,
  config: unknown,
  options: OpenOptions & {
    /** This runtime's metrics sink over the router's statistics (Prometheus, EMF, Analytics Engine). */
    metrics?: (stats: RouterMetrics) => RuntimeMetrics;
    /** Where writes get their random shards (tests pin it); Math.random otherwise. */
    random?: () => number;
    /** The time load minutes and the shard maps' TTL count by (tests move their own clock); Date.now otherwise. */
    now?: () => number;
    /** Node: shed work past the adaptive admission limit, as SHED_PAUSE_MS says (http/middleware/admission.ts). */
    shedLoad?: boolean;
    /**
     * Worker and Lambda: the tables prepared on the first request that needs them (a 503 until then), and the
     * fleet's load written after answers, for want of a start and of a timer (http/gates.ts).
     */
    bundled?: boolean;
  } = {},
): Service {
  const { collections, dynamo } = openTable(settings, config, options);
  const recorded = settings.loadRecords === false ? [] : collections.filter(keepsLoadRecords);
  const load =
    recorded.length === 0
      ? undefined
      : new LoadRecorder(dynamo.loadStore(settings.loadTtlHours * 3600), recorded, settings.loadMinuteMs, options.now, {
          // The load records' writes retry like any call: their retries reach the metrics the requests' do.
          retried: (operation, reason) => observability.recorder.retried(operation, reason),
        });
  const observability = observabilityOf(settings, options.metrics, load?.recorder);
  const maps = new ShardMaps(dynamo.mapStore, collections, {
    ttlMs: settings.mapTtlMs,
    ...(options.now && { now: options.now }),
    onReadVersion: (collection, version) => observability.recorder.mapVersion(collection, version),
    log: (message) => console.warn(message),
    // Tables shardline creates at start it creates again if they vanish (an engine restarted empty).
    ...(settings.createTable && { onTableMissing: () => prepareTables(built, true, settings.tableStream) }),
  });
  const shardline = createShardline({
    collections,
    store: dynamo.items,
    maps,
    ...(options.random && { random: options.random }),
    cursorSecret: settings.cursorSecret ?? randomBytes(32).toString('base64url'),
    // GET /collections/{c}/load and a group's page read the fleet's records by the recorder's minutes and clock.
    ...(load && { load: { records: load.store, minuteMs: load.minuteMs, ...(options.now && { now: options.now }) } }),
  });
  const gates: Gates = {
    ...(options.shedLoad && {
      admission: { shardCountOf: (collection) => maps.readShardCount(collection), shedPauseMs: settings.shedPauseMs },
    }),
    ...(options.bundled && { tablesReady: () => built.ready(), ...(load && { flushLoad: load }) }),
  };
  const app = createApp({
    shardline,
    gates,
    requestTimeoutMs: settings.requestTimeoutMs,
    observability,
    security: {
      apiKeys: settings.metricsKey
        ? [...settings.apiKeys, { key: settings.metricsKey, scope: 'metrics' }]
        : settings.apiKeys,
      corsOrigins: settings.corsOrigins,
      bodyLimits: {
        itemBytes: settings.maxItemBodyBytes,
        batchBytes: settings.maxBatchBodyBytes,
        timeoutMs: settings.bodyTimeoutMs,
      },
      ...(settings.rateLimitPerSecond !== undefined && { rateLimitPerSecond: settings.rateLimitPerSecond }),
      authFailuresPerSecond: settings.authFailuresPerSecond,
    },
  });
  let prepared = false;
  const ready = async () => {
    if (prepared) return;
    await prepareTables(built, settings.createTable, settings.tableStream);
    prepared = true;
  };
  const built: Service = { app, collections, dynamo, maps, ...(load && { load }), ready };
  return built;
}

/** What a runtime adds to the router's own statistics: a push sink, or a /metrics exposition. */
export interface RuntimeMetrics {
  readonly recorder?: MetricsRecorder;
  readonly exposition?: ObservabilityOptions['exposition'];
}

/** Statistics and the runtime's sink when SHARDLINE_METRICS is on; the request log as LOG_LEVEL says. */
function observabilityOf(
  settings: Settings,
  runtime: ((stats: RouterMetrics) => RuntimeMetrics) | undefined,
  load: MetricsRecorder | undefined,
): ObservabilityOptions {
  const requestLog = { level: settings.logLevel, write: (line: string) => console.log(line) };
  if (!settings.metrics) return { recorder: fanOut(load ? [load] : []), requestLog };
  const stats = new RouterMetrics({ hotKeys: settings.hotKeys });
  const { recorder, exposition } = runtime?.(stats) ?? {};
  const recorders = [stats, recorder, load].filter((one): one is MetricsRecorder => one !== undefined);
  return { recorder: fanOut(recorders), stats, ...(exposition && { exposition }), requestLog };
}

/** Creates the collections' tables (when allowed), waits until they are ACTIVE, and writes first shard maps. */
export async function prepareTables(service: Service, create: boolean, stream = true): Promise<void> {
  const firstOfTable = service.collections.filter((one, i, all) => all.findIndex((o) => o.table === one.table) === i);
  for (const collection of firstOfTable) {
    // TTL only where this router writes load records: they are what expires.
    await service.dynamo.ensure(collection, create, stream, service.load !== undefined);
  }
  await service.maps.initialize({});
}
