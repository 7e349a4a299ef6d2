import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { errorResponse } from '../errors';
import { AuthFailures } from './auth-failures';
import { rateLimited } from './rate-limit';

/** `metrics` (METRICS_KEY) may only read /metrics; `write` includes `read`. */
type Scope = 'read' | 'write' | 'metrics';

/** How a path's access differs from the rest: `public` needs no key, `metrics` is what the metrics key may read. */
export type PathAccess = 'public' | 'metrics';

export type ApiKeyGrant = { readonly key: string; readonly scope: Scope };

interface StoredKey {
  /** SHA-256 of the key: every comparison is between two 32-byte digests. */
  readonly digest: Buffer;
  readonly scope: Scope;
  /** How logs and the rate limiter name the caller (`key#N`, its position in API_KEYS), never its text. */
  readonly id: string;
}

const REALM = 'Bearer realm="shardline"';

/**
 * Bearer-key authentication with scopes; with no keys configured the API is open. Otherwise every path not marked
 * `public` needs a key: 401 without a valid one, 403 when a `read` key asks for a write, or the metrics key for
 * anything but to read the path marked `metrics`.
 *
 * Timing: the token and every key are hashed with SHA-256 and compared with `timingSafeEqual`, always against all
 * keys, so neither the first differing byte, a key's length nor which key matched shows in the response time.
 *
 * Failed authentications are limited apart (AuthFailures): per presented credential and address, and per address
 * for new credentials, so a guesser gets 429s, a stale key repeated costs only itself, and a key that has passed
 * from an address keeps passing while someone there guesses. A failure never spends a real key's own tokens.
 */
export function bearerAuth(grants: readonly ApiKeyGrant[], failuresPerSecond: number): MiddlewareHandler<AppEnv> {
  const failures = new AuthFailures(failuresPerSecond);
  const keys: StoredKey[] = grants.map((grant, i) => ({
    digest: sha256(grant.key),
    scope: grant.scope,
    id: grant.scope === 'metrics' ? 'metrics-key' : `key#${i + 1}`,
  }));
  return async (c, next) => {
    if (keys.length === 0 || c.get('access') === 'public' || c.req.method === 'OPTIONS') return next();
    const header = c.req.header('authorization');
    const token = header === undefined ? undefined : /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header)?.[1];
    const digest = token === undefined ? undefined : sha256(token);
    // Compared with every key, never stopping at a match: which key matched does not show in the time.
    const match = digest && keys.filter((key) => timingSafeEqual(key.digest, digest))[0];
    const address = clientAddress(c) ?? 'unknown';
    const wait = match ? failures.admit(address, match.id) : failures.take(address, digest?.toString('base64') ?? '');
    // A valid key refused here gets exactly a limited guess's answer: the 429 must not tell a guesser it was right.
    if (wait > 0) {
      throw rateLimited(
        wait,
        `over ${failuresPerSecond} failed authentications a second from this address; retry later`,
      );
    }
    if (!match) {
      const [message, error] = digest
        ? ['the API key is not valid', ', error="invalid_token"']
        : ['this API needs an API key: send Authorization: Bearer <key>', ''];
      c.header('WWW-Authenticate', `${REALM}${error}`);
      return errorResponse(c, new ShardlineError('unauthorized', message));
    }
    if (match.scope === 'metrics' && !(c.get('access') === 'metrics' && isReadMethod(c.req.method))) {
      c.header('WWW-Authenticate', `${REALM}, error="insufficient_scope", scope="read"`);
      return errorResponse(c, new ShardlineError('forbidden', 'this key may only read /metrics'));
    }
    if (match.scope === 'read' && !isReadMethod(c.req.method)) {
      c.header('WWW-Authenticate', `${REALM}, error="insufficient_scope", scope="write"`);
      const message = 'this API key may only read; writes need a key with scope write';
      return errorResponse(c, new ShardlineError('forbidden', message));
    }
    c.set('caller', match.id);
    return next();
  };
}

function isReadMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

type SourceIp = { readonly sourceIp?: string };

/** @hono/node-server's request, or hono/aws-lambda's event (API Gateway REST v1, HTTP API / Function URL v2). */
interface RuntimeBindings {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  readonly event?: { readonly requestContext?: { readonly http?: SourceIp; readonly identity?: SourceIp } };
}

/**
 * The address a request came from, as the runtime saw it, or undefined where it cannot be told: the socket's peer
 * on Node (a proxy in front is the address of every request through it), `CF-Connecting-IP` on Workers (set by
 * Cloudflare, not by the client), the event's `sourceIp` on Lambda.
 */
export function clientAddress(c: Context<AppEnv>): string | undefined {
  const bindings = (c.env ?? {}) as RuntimeBindings;
  const context = bindings.event?.requestContext;
  return (
    bindings.incoming?.socket?.remoteAddress ??
    context?.http?.sourceIp ??
    context?.identity?.sourceIp ??
    c.req.header('cf-connecting-ip')
  );
}
