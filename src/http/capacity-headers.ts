import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env';

/**
 * After an item route: `x-consumed-rcu` and `x-consumed-wcu`, the read and write units DynamoDB
 * reported for every call the request made (table and indexes). An engine that reports nothing
 * (dynalite) gives 0: the headers always say what was reported.
 */
export const consumedCapacityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const capacity = c.get('call')?.capacity;
  if (!capacity) return;
  c.res.headers.set('x-consumed-rcu', String(capacity.read));
  c.res.headers.set('x-consumed-wcu', String(capacity.write));
};

/** The two headers as the OpenAPI description declares them on an item route's answers. */
export const capacityResponseHeaders = z.object({
  'x-consumed-rcu': z.string().openapi({ description: 'read capacity units DynamoDB reported (table and indexes)' }),
  'x-consumed-wcu': z.string().openapi({ description: 'write capacity units DynamoDB reported (table and indexes)' }),
});
