import { type Server, STATUS_CODES } from 'node:http';
import { ShardlineError } from '../../core/errors';
import { errorBodyText, errorStatus } from '../../http/errors';
import type { Socket } from 'node:net';

/** Node's limit on the request line and headers: above the app's own, whose JSON 414 or 431 keeps the connection. */
export const NODE_MAX_HEADER_BYTES = 64 * 1024;

/**
 * Node's own bounds from BODY_TIMEOUT_MS: the headers, and the whole request, arrive within `timeoutMs` of the first
 * byte, or Node answers 408 (answerClientErrors) and closes. It checks every `connectionsCheckingInterval` (30 s by
 * default, far past the bound): a quarter of the bound, at most a second, keeps the overrun small.
 */
export function arrivalBounds(timeoutMs: number) {
  return {
    headersTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(timeoutMs / 4))),
  };
}

/**
 * Requests Node's parser refuses before the app sees them get a JSON error like every other answer, with
 * `Connection: close`: the parser cannot find where the next request would start.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refused = parserRefusal(error);
    const status = errorStatus(refused.code);
    const body = errorBodyText(refused);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

function parserRefusal(error: NodeJS.ErrnoException): ShardlineError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ShardlineError(
        'headers_too_large',
        `the request line and headers are over ${NODE_MAX_HEADER_BYTES} bytes`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ShardlineError('request_timeout', 'the request did not arrive in time');
    default:
      return new ShardlineError('invalid_request', 'the request is not well-formed HTTP/1.1');
  }
}

/** What an operator can do about a listen error, by its code (others: Node's own message). */
const LISTEN_ERRORS = new Map([
  [
    'EADDRINUSE',
    'the port is already in use (another shardline, or another program). ' +
      'Stop it, or start with PORT set to a free port (PORT=0 picks one).',
  ],
  ['EACCES', 'not permitted (ports below 1024 need privileges); set PORT.'],
  ['EADDRNOTAVAIL', 'this machine has no such address; check HOST.'],
]);

/** A listen error as one line an operator can act on (EADDRINUSE: which port, what to do). */
export function describeListenError(error: NodeJS.ErrnoException, host: string, port: number): string {
  return `shardline cannot listen on ${host}:${port}: ${LISTEN_ERRORS.get(error.code ?? '') ?? error.message}`;
}
