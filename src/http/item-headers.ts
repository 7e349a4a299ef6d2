import type { Context, MiddlewareHandler } from 'hono';
import { z } from '@hono/zod-openapi';
import { utf8Length } from '../core/collation';
import { invalidRequest } from '../core/errors';
import { etagHeader, parseEtagList } from '../core/etag';
import { PROTO } from '../core/values';
import type { Preconditions } from '../service/guards';
import type { AppEnv } from './env';

/** The request's `If-Match` / `If-None-Match` (`allowNoneMatch`: a create-only write may send `If-None-Match: *`). */
export function preconditionsFrom(c: Context<AppEnv>, allowNoneMatch: boolean): Preconditions {
  const ifMatch = parseEtagList(c.req.header('if-match'));
  const ifNoneMatch = parseEtagList(c.req.header('if-none-match'));
  if (ifNoneMatch !== undefined && (!allowNoneMatch || ifNoneMatch !== '*')) {
    throw invalidRequest(
      allowNoneMatch ? 'a write takes If-None-Match: * only (create if absent)' : 'this write takes no If-None-Match',
    );
  }
  if (ifMatch !== undefined && ifNoneMatch !== undefined)
    throw invalidRequest('use If-Match or If-None-Match, not both');
  return { ...(ifMatch !== undefined && { ifMatch }), ...(ifNoneMatch === '*' && { ifNoneMatch }) };
}

/** At most this many names in `fields`: with shardline's own, far inside DynamoDB's 4 KB projection limit. */
export const MAX_FIELDS = 100;
/** At most this many bytes (UTF-8) of names in `fields`, as many as a query string holds. */
export const MAX_FIELDS_BYTES = 16 * 1024;

/** `fields=a,b` (or a body's `"fields": ["a", "b"]`): the attributes a read returns (undefined: all of them). */
export function parseFields(fields: string | readonly string[] | undefined): string[] | undefined {
  if (fields === undefined) return undefined;
  const names = typeof fields === 'string' ? fields.split(',') : fields;
  const overLimit = (what: string, limit: number) =>
    invalidRequest(`${what}; at most ${limit}`, { parameter: 'fields', limit });
  if (names.length > MAX_FIELDS) throw overLimit(`fields names ${names.length} attributes`, MAX_FIELDS);
  const bytes = names.reduce((sum, name) => sum + utf8Length(name), 0);
  if (bytes > MAX_FIELDS_BYTES) throw overLimit(`fields holds ${bytes} bytes of attribute names`, MAX_FIELDS_BYTES);
  if (names.length === 0 || names.some((name) => name.length === 0)) {
    throw invalidRequest('fields lists attribute names separated by commas');
  }
  if (names.some((name) => !name.isWellFormed())) throw invalidRequest('fields holds an unpaired surrogate');
  if (names.includes(PROTO)) throw invalidRequest(`fields: the attribute name "${PROTO}" is not supported`);
  return [...new Set(names)];
}

export function etagHeaders(etag: unknown): Record<string, string> {
  return typeof etag === 'string' ? { ETag: etagHeader(etag) } : {};
}

export const fieldsParam = z.string().optional().openapi({
  description: 'comma-separated attribute names: return only these (a DynamoDB projection)',
  example: 'title,year',
});

export const ifMatchHeader = z.string().optional().openapi({
  description: 'write only if the item exists and its ETag is one of these (`*`: exists); else 412',
});
export const ifNoneMatchHeader = z.string().optional().openapi({
  description: '`*`: write only if no item has this key (create only); else 412',
});
export const etagResponseHeader = z.object({
  ETag: z.string().openapi({ description: 'strong ETag of the stored item, for If-Match' }),
});

/**
 * After an item route: `x-consumed-rcu` and `x-consumed-wcu`, the units DynamoDB reported for every call the request
 * made (table and indexes). An engine that reports nothing (dynalite) gives 0.
 */
export const consumedCapacityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const capacity = c.get('call')?.capacity;
  if (!capacity) return;
  c.res.headers.set('x-consumed-rcu', String(capacity.read));
  c.res.headers.set('x-consumed-wcu', String(capacity.write));
};

export const capacityResponseHeaders = z.object({
  'x-consumed-rcu': z.string().openapi({ description: 'read capacity units DynamoDB reported (table and indexes)' }),
  'x-consumed-wcu': z.string().openapi({ description: 'write capacity units DynamoDB reported (table and indexes)' }),
});
