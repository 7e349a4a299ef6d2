import { type JsonCodec, losslessJson, plainJson } from './json.js';

export interface ClientOptions {
  /** Where shardline answers, e.g. `https://shardline.example.com` (a path prefix is kept). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` where the service has API_KEYS. */
  readonly apiKey?: string;
  /** Numbers a double would change come back, and go out, as `ExactNumber` (default false). */
  readonly lossless?: boolean;
  /** How long one call may keep retrying 429, 503 and dropped connections (default 30 s). */
  readonly retryBudgetMs?: number;
  /** Another fetch (a test's, a proxy agent's); default the global one. */
  readonly fetch?: typeof fetch;
  readonly headers?: Record<string, string>;
}

/** A failed call: the service's JSON error (`code`, `message`, `requestId`, details) and the HTTP status. */
export class ShardlineClientError extends Error {
  override readonly name = 'ShardlineClientError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  get requestId(): string | undefined {
    return typeof this.details.requestId === 'string' ? this.details.requestId : undefined;
  }
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Statuses answered as they are rather than thrown (404 of a GET, 304). */
  readonly accept?: readonly number[];
  readonly contentType?: string;
}

/** Statuses worth asking again: the service said so (Retry-After) and did nothing. */
const RETRIED = new Set([429, 503]);

/** One HTTP exchange with shardline: JSON both ways, retries within a budget, errors as ShardlineClientError. */
export class Transport {
  readonly json: JsonCodec;
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly budgetMs: number;

  constructor(private readonly options: ClientOptions) {
    this.json = options.lossless ? losslessJson : plainJson;
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.budgetMs = options.retryBudgetMs ?? 30_000;
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
    const giveUpAt = Date.now() + this.budgetMs;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetch(url, init);
      } catch (error) {
        // A dropped connection: every shardline call is safe to repeat (whole puts, merge patches, deletes).
        const wait = backoff(attempt);
        if (Date.now() + wait > giveUpAt) throw error;
        await sleep(wait);
        continue;
      }
      if (RETRIED.has(response.status)) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt);
        if (Date.now() + wait <= giveUpAt) {
          await response.body?.cancel();
          await sleep(wait);
          continue;
        }
      }
      return this.answer(response, call);
    }
  }

  private url(call: Call): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) query.append(name, value);
    const search = query.toString();
    return `${this.base}${call.path}${search ? `?${search}` : ''}`;
  }

  private async answer(response: Response, call: Call): Promise<Answer> {
    const text = await response.text();
    const body = text && /json/.test(response.headers.get('content-type') ?? '') ? this.json.parse(text) : undefined;
    if (response.ok || call.accept?.includes(response.status)) {
      return { status: response.status, headers: response.headers, body };
    }
    const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
    const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
    const message =
      typeof error?.message === 'string' ? error.message : `${call.method} ${call.path}: ${response.status}`;
    const { code: _, message: __, ...details } = error ?? {};
    throw new ShardlineClientError(response.status, code, message, details);
  }
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
function backoff(attempt: number): number {
  return Math.random() * Math.min(5000, 100 * 2 ** attempt);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
