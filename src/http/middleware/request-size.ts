import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

/** Longest path and query read: room for the largest cursor (8 KiB) and a key-sized filter value, %-encoded. */
export const MAX_URL_BYTES = 16 * 1024;
/** Largest sum of header names and values. */
export const MAX_HEADER_BYTES = 32 * 1024;

/** 414 and 431 as JSON: the Node server's parser takes more (node-http.ts), so these answers keep the connection. */
export function requestSizeLimits(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A parsed URL is ASCII (anything else is percent-encoded), and header values are byte strings: lengths are bytes.
    const url = c.req.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const urlBytes = pathStart < 0 ? 1 : url.length - pathStart;
    if (urlBytes > MAX_URL_BYTES) throw overLimit('uri_too_long', `the URL is ${urlBytes}`, MAX_URL_BYTES);
    let headerBytes = 0;
    c.req.raw.headers.forEach((value, name) => {
      headerBytes += name.length + value.length + 4; // ": " and CRLF, as on the wire
    });
    if (headerBytes > MAX_HEADER_BYTES) {
      throw overLimit('headers_too_large', `the request headers are ${headerBytes}`, MAX_HEADER_BYTES);
    }
    return next();
  };
}

function overLimit(code: 'uri_too_long' | 'headers_too_large', size: string, limitBytes: number): ShardlineError {
  return new ShardlineError(code, `${size} bytes; at most ${limitBytes} are read`, { limitBytes });
}
