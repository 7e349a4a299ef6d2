import { type JsonCodec, losslessJson, plainJson } from './json.js';

export interface ClientOptions {
  /** Where shardline answers, e.g. `https://shardline.example.com` (a path prefix is kept). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` where the service has API_KEYS. */
  readonly apiKey?: string;
  /** Numbers a double would change come back, and go out, as `ExactNumber` (default false). */
  readonly lossless?: boolean;
  /** How long one call may take, its retries of 429, 503 and dropped connections included (default 30 s). */
  readonly retryBudgetMs?: number;
  /** How long one attempt may wait for its whole answer (default 15 s, past the service's 10 s deadline). */
  readonly attemptTimeoutMs?: number;
  /** Default: the global fetch. */
  readonly fetch?: typeof fetch;
  readonly headers?: Record<string, string>;
}

/**
 * Every failed call: the service's JSON error and the HTTP status; or, with no status, the client's own
 * `network`, `timeout` or `outcome_unknown` (a retried write whose effect the client could not confirm).
 */
export class ShardlineClientError extends Error {
  override readonly name = 'ShardlineClientError';
  constructor(
    readonly status: number | undefined,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  get requestId(): string | undefined {
    return typeof this.details.requestId === 'string' ? this.details.requestId : undefined;
  }
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  /** An earlier attempt of this call was cut off in transit: the service may have acted on it. */
  readonly afterDrop: boolean;
}

export interface Call {
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Statuses answered rather than thrown (a GET's 404), and those only after a cut-off attempt (a conditional 412). */
  readonly accept?: readonly number[];
  readonly acceptAfterDrop?: readonly number[];
  readonly contentType?: string;
}

/** Statuses worth asking again: the service said so (Retry-After) and did nothing. */
const RETRIED = new Set([429, 503]);

/** One HTTP exchange with shardline: JSON both ways, retries within a budget, errors as ShardlineClientError. */
export class Transport {
  readonly json: JsonCodec;
  private readonly base: string;

  constructor(private readonly options: ClientOptions) {
    this.json = options.lossless ? losslessJson : plainJson;
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async send(call: Call): Promise<Answer> {
    const url = this.url(call);
    const init: RequestInit = {
      method: call.method,
      headers: {
        accept: 'application/json',
        ...this.options.headers,
        ...(this.options.apiKey && { authorization: `Bearer ${this.options.apiKey}` }),
        ...(call.body !== undefined && { 'content-type': call.contentType ?? 'application/json' }),
        ...call.headers,
      },
      ...(call.body !== undefined && { body: this.json.stringify(call.body) }),
    };
    const { fetch = globalThis.fetch, retryBudgetMs = 30_000, attemptTimeoutMs = 15_000 } = this.options;
    const giveUpAt = Date.now() + retryBudgetMs;
    let afterDrop = false;
    for (let attempt = 0; ; attempt++) {
      const signal = AbortSignal.timeout(Math.max(1, Math.min(attemptTimeoutMs, giveUpAt - Date.now())));
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, { ...init, signal });
        if (RETRIED.has(response.status)) {
          const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt);
          if (Date.now() + wait < giveUpAt) {
            await response.body?.cancel();
            await sleep(wait);
            continue;
          }
        }
        text = await response.text();
      } catch (error) {
        // Cut off in transit, perhaps after the service acted: every shardline call is safe to repeat;
        // the callers of conditional writes check what a repeat's 412 or 404 means (`afterDrop`).
        afterDrop = true;
        const wait = backoff(attempt);
        if (Date.now() + wait >= giveUpAt) throw inTransit(call, error, signal.aborted);
        await sleep(wait);
        continue;
      }
      return this.answer(response, text, call, afterDrop);
    }
  }

  private url(call: Call): string {
    const defined = Object.entries(call.query ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    const search = new URLSearchParams(defined).toString();
    return `${this.base}${call.path}${search ? `?${search}` : ''}`;
  }

  private answer(response: Response, text: string, call: Call, afterDrop: boolean): Answer {
    let body: unknown;
    try {
      body = text && /json/.test(response.headers.get('content-type') ?? '') ? this.json.parse(text) : undefined;
    } catch (error) {
      const message = `${call.method} ${call.path}: ${response.status} with a body that is not JSON`;
      throw new ShardlineClientError(response.status, 'invalid_response', message, {}, { cause: error });
    }
    const answer = { status: response.status, headers: response.headers, body, afterDrop };
    const accepted =
      call.accept?.includes(response.status) || (afterDrop && call.acceptAfterDrop?.includes(response.status));
    if (response.ok || accepted) return answer;
    throw errorOf(answer, call);
  }
}

/** The service's JSON error of an answer, as thrown. */
export function errorOf(answer: Answer, call: Pick<Call, 'method' | 'path'>): ShardlineClientError {
  const error = (answer.body as { error?: Record<string, unknown> } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http_${answer.status}`;
  const message = typeof error?.message === 'string' ? error.message : `${call.method} ${call.path}: ${answer.status}`;
  const { code: _, message: __, ...details } = error ?? {};
  return new ShardlineClientError(answer.status, code, message, details);
}

/** No answer: the attempt's timer ran out (`timeout`) or the connection failed (`network`). */
function inTransit(call: Call, error: unknown, timedOut: boolean): ShardlineClientError {
  const what = `${call.method} ${call.path}`;
  return timedOut
    ? new ShardlineClientError(undefined, 'timeout', `${what}: no answer in time`, {}, { cause: error })
    : new ShardlineClientError(undefined, 'network', `${what}: ${describe(error)}`, {}, { cause: error });
}

/** `fetch failed (ECONNREFUSED)`: undici puts the reason in the cause. */
function describe(error: unknown): string {
  const reason = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof reason === 'string' ? `${message} (${reason})` : message;
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Full jitter over 100 ms × 2^attempt, at most 5 s. */
const backoff = (attempt: number) => Math.random() * Math.min(5000, 100 * 2 ** attempt);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
