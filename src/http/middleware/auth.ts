import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { clientAddress } from '../client-address';
import { errorResponse } from '../errors';
import { rateLimited, type TokenBuckets } from './rate-limit';

/** `metrics` (METRICS_KEY) may only read /metrics. */
export type Scope = 'read' | 'write' | 'metrics';

/** How a path's access differs from the rest: `public` needs no key, `metrics` is what the metrics key may read. */
export type PathAccess = 'public' | 'metrics';

/** One bearer key and what it may do; `write` includes `read`. */
export interface ApiKeyGrant {
  readonly key: string;
  readonly scope: Scope;
}

interface StoredKey {
  /** SHA-256 of the key: every comparison is between two 32-byte digests. */
  readonly digest: Buffer;
  readonly scope: Scope;
  /** How logs and the rate limiter name the caller: its position, never its text. */
  readonly id: string;
}

const REALM = 'Bearer realm="shardline"';

/**
 * Bearer-key authentication with scopes. With no keys configured every request
 * passes (the API is open). Otherwise every path not marked `public` (`pathAccess`,
 * put on paths by route pattern before this runs) needs `Authorization: Bearer <key>`:
 * 401 (with `WWW-Authenticate: Bearer`) without a valid key, 403 when a `read` key
 * asks for a write (any method but GET, HEAD, OPTIONS), 403 when the metrics key
 * (scope `metrics`) asks for anything but to read the path marked `metrics`.
 *
 * Timing: the presented token and every configured key are hashed with SHA-256
 * and compared with `timingSafeEqual`, always against all keys, so neither the
 * position of the first differing byte, a key's length nor which key matched
 * shows in the response time. Keys never reach a response or a log; callers are
 * named `key#N` (the key's position in API_KEYS).
 *
 * Guessing: each 401 spends a token of the caller's address in `failures` (apart from
 * every key's own bucket, so a guesser never spends a real key's tokens). An address
 * whose failure bucket is empty gets a 429 before its key is even looked at — else a
 * right guess would still show as a 200 among the 429s. A request whose address cannot
 * be told shares the bucket `unknown`.
 */
export function bearerAuth(grants: readonly ApiKeyGrant[], failures?: TokenBuckets): MiddlewareHandler<AppEnv> {
  const keys: StoredKey[] = grants.map((grant, i) => ({
    digest: sha256(grant.key),
    scope: grant.scope,
    id: grant.scope === 'metrics' ? 'metrics-key' : `key#${i + 1}`,
  }));
  return async (c, next) => {
    if (keys.length === 0 || c.get('access') === 'public' || c.req.method === 'OPTIONS') return next();
    const address = clientAddress(c) ?? 'unknown';
    const wait = failures?.waitFor(address) ?? 0;
    if (wait > 0) {
      throw rateLimited(wait, `over ${failures?.perSecond} failed authentications per second from this address`);
    }
    const refuse = (error: ShardlineError): Response => {
      failures?.spend(address);
      return errorResponse(c, error);
    };
    const header = c.req.header('authorization');
    const token = header === undefined ? undefined : /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header)?.[1];
    if (token === undefined) {
      c.header('WWW-Authenticate', REALM);
      return refuse(new ShardlineError('unauthorized', 'this API needs an API key: send Authorization: Bearer <key>'));
    }
    const match = findKey(keys, sha256(token));
    if (!match) {
      c.header('WWW-Authenticate', `${REALM}, error="invalid_token"`);
      return refuse(new ShardlineError('unauthorized', 'the API key is not valid'));
    }
    if (match.scope === 'metrics' && !(c.get('access') === 'metrics' && isReadMethod(c.req.method))) {
      c.header('WWW-Authenticate', `${REALM}, error="insufficient_scope", scope="read"`);
      return errorResponse(c, new ShardlineError('forbidden', 'this key may only read /metrics'));
    }
    if (match.scope === 'read' && !isReadMethod(c.req.method)) {
      c.header('WWW-Authenticate', `${REALM}, error="insufficient_scope", scope="write"`);
      return errorResponse(
        c,
        new ShardlineError('forbidden', 'this API key may only read; writes need a key with scope write'),
      );
    }
    c.set('caller', match.id);
    return next();
  };
}

/**
 * Marks the paths it is attached to (`app.use(path, pathAccess(…))`, before bearerAuth): Hono's router, which
 * routes the request, tells bearerAuth which paths are public, rather than a second list of paths compared by hand.
 */
export function pathAccess(access: PathAccess): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('access', access);
    await next();
  };
}

function isReadMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** Compares against every key without stopping at the first match. */
function findKey(keys: readonly StoredKey[], digest: Buffer): StoredKey | undefined {
  let found: StoredKey | undefined;
  for (const key of keys) {
    if (timingSafeEqual(key.digest, digest) && found === undefined) found = key;
  }
  return found;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
