import type { Gates } from './gates';
import type { MetricsRecorder } from '../service/metrics/recorder';
import type { RequestContext, RequestTally } from '../service/metrics/request-tally';
import type { RouterMetrics } from '../service/metrics/router-metrics';
import type { Shardline } from '../service/shardline';
import type { ApiKeyGrant, PathAccess } from './middleware/auth';
import type { BodyLimits } from './middleware/json-body';

/** Who may call, from where, and how much (all optional: unset = open API, no CORS, default limits). */
export interface SecurityOptions {
  readonly apiKeys?: readonly ApiKeyGrant[];
  readonly corsOrigins?: readonly string[];
  readonly bodyLimits?: BodyLimits;
  /** Requests per second per caller; unset = no limit. */
  readonly rateLimitPerSecond?: number;
  /** Failed authentications per second per credential and address, with API keys (default 10; auth-failures.ts). */
  readonly authFailuresPerSecond?: number;
}

/** The request log's threshold: `info` logs every request, `warn` 4xx and 5xx, `error` 5xx only. */
export type LogLevel = 'info' | 'warn' | 'error' | 'off';

/** What the service observes and who listens; unset = nothing recorded, no log, no /metrics. */
export interface ObservabilityOptions {
  /** Told of every shard query, write, throttle, retry and request (NO_METRICS when off). */
  readonly recorder: MetricsRecorder;
  /** The in-memory figures behind /stats and /heat; those routes exist only with it. */
  readonly stats?: RouterMetrics;
  /** The Prometheus text of /metrics; that route exists only where a runtime offers it (Node). */
  readonly exposition?: () => Promise<{ contentType: string; body: string }>;
  /** Where the one JSON line per request goes, and from which level. */
  readonly requestLog?: { readonly level: LogLevel; readonly write: (line: string) => void };
}

/** What the HTTP app is built from; each runtime supplies its own. */
export interface AppDeps {
  readonly shardline: Shardline;
  readonly requestTimeoutMs: number;
  readonly security?: SecurityOptions;
  readonly observability?: ObservabilityOptions;
  /** What the runtime puts before the API: load shedding (Node), the tables' readiness (Worker, Lambda). */
  readonly gates?: Gates;
}

export interface AppEnv {
  Variables: {
    /** The caller's `x-request-id` when well-formed, else a fresh UUID; echoed in the response header. */
    requestId: string;
    call: RequestContext;
    /** The authenticated caller (`key#N`), when API keys are configured. */
    caller?: string;
    // Marks set by route pattern (app.ts, gates.ts) for the middleware after them.
    /** The few paths whose access differs from the rest. */
    access?: PathAccess;
    /** The health check: never rate-limited. */
    unlimited?: true;
    /** The probes (health check, /metrics): admission neither counts nor sheds them. */
    probe?: true;
    /** The collection a listing's GET reads: admission weighs the request by its shards. */
    listed?: string;
    /** The API's description: it answers before the tables are ready. */
    tableless?: true;
    /** What this request did (shard queries, items, retries) and the metrics recorder. */
    tally?: RequestTally;
  };
}
