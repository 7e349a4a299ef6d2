import type { Context } from 'hono';
import type { AppEnv } from './env';

interface RuntimeBindings {
  /** @hono/node-server: the Node request. */
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  /** hono/aws-lambda: API Gateway REST (v1) or HTTP API / Function URL (v2) event. */
  readonly event?: {
    readonly requestContext?: {
      readonly http?: { readonly sourceIp?: string };
      readonly identity?: { readonly sourceIp?: string };
    };
  };
}

/**
 * The address a request came from, as the runtime saw it, or undefined where it cannot be told:
 * the socket's peer on Node (a proxy in front is the address of every request through it),
 * `CF-Connecting-IP` on Workers (set by Cloudflare, not by the client), the event's
 * `sourceIp` on Lambda. The one place that knows each runtime's shape.
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
