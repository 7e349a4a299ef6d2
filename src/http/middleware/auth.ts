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

const REALM = 'Bearer realm="shardline"';

/**
 * Bearer-key authentication with scopes; with no keys configured the API is open. Every path not marked `public`
 * needs a key: 401 without a valid one, 403 for a `read` key's write or the metrics key's anything but reading the
 * path marked `metrics`. Token and keys are compared as SHA-256 digests with `timingSafeEqual`, always against every
 * key, so no byte, length or match shows in the time. Failures are limited apart (AuthFailures) and never spend a
 * real key's tokens.
 */
export function bearerAuth(grants: readonly ApiKeyGrant[], failuresPerSecond: number): MiddlewareHandler<AppEnv> {
  const failures = new AuthFailures(failuresPerSecond);
  const keys = grants.map((grant, i) => ({
    digest: sha256(grant.key),
    scope: grant.scope,
    // How logs and the rate limiter name the caller (its position in API_KEYS), never its text.
    id: grant.scope === 'metrics' ? 'metrics-key' : `key#${i + 1}`,
  }));
  return async (c, next) => {
    if (keys.length === 0 || c.get('access') === 'public' || c.req.method === 'OPTIONS') return next();
    const header = c.req.header('authorization');
    const token = header === undefined ? undefined : /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header)?.[1];
    const digest = token === undefined ? undefined : sha256(token);
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
      if (!digest) return refuse(c, 'unauthorized', 'this API needs an API key: send Authorization: Bearer <key>', '');
      return refuse(c, 'unauthorized', 'the API key is not valid', ', error="invalid_token"');
    }
    if (match.scope === 'metrics' && !(c.get('access') === 'metrics' && isReadMethod(c.req.method))) {
      return refuse(c, 'forbidden', 'this key may only read /metrics', ', error="insufficient_scope", scope="read"');
    }
    if (match.scope === 'read' && !isReadMethod(c.req.method)) {
      const message = 'this API key may only read; writes need a key with scope write';
      return refuse(c, 'forbidden', message, ', error="insufficient_scope", scope="write"');
    }
    c.set('caller', match.id);
    return next();
  };
}

/** A 401 or 403 with its `WWW-Authenticate` challenge (`detail` follows the realm). */
function refuse(c: Context<AppEnv>, code: 'unauthorized' | 'forbidden', message: string, detail: string): Response {
  c.header('WWW-Authenticate', `${REALM}${detail}`);
  return errorResponse(c, new ShardlineError(code, message));
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
 * The address a request came from as the runtime saw it: the socket's peer on Node (behind a proxy, the proxy's),
 * the event's `sourceIp` on Lambda, `CF-Connecting-IP` on Workers (set by Cloudflare, not by the client).
 */
function clientAddress(c: Context<AppEnv>): string | undefined {
  const bindings = (c.env ?? {}) as RuntimeBindings;
  const context = bindings.event?.requestContext;
  return (
    bindings.incoming?.socket?.remoteAddress ??
    context?.http?.sourceIp ??
    context?.identity?.sourceIp ??
    c.req.header('cf-connecting-ip')
  );
}
