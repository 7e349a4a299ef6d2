import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import type { AppEnv } from '../env';
import { type BodyLimits, jsonBodyGuards } from './json-body';

/** A PUT or PATCH body of a collection in parts: a 16 MiB entity, with room for JSON escaping. */
export const ENTITY_BODY_BYTES = 17 * 1024 * 1024;

/**
 * The body guards of PUT and PATCH, by collection: one in parts takes entities up to 16 MiB (the
 * service refuses a larger one with a 413 naming that limit); every other keeps its item limit.
 */
export function itemBodyGuards(
  limits: BodyLimits,
  inParts: (collection: string) => boolean,
): MiddlewareHandler<AppEnv> {
  const item = every(...jsonBodyGuards(limits.itemBytes, limits.timeoutMs));
  const entity = every(...jsonBodyGuards(Math.max(limits.itemBytes, ENTITY_BODY_BYTES), limits.timeoutMs));
  return (c, next) => (inParts(c.req.param('collection') ?? '') ? entity : item)(c, next);
}
