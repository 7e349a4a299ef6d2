import { ShardlineError } from '../core/errors';

/** How long a request body may take to arrive whole before the request is cut (BODY_TIMEOUT_MS). */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;

/**
 * A request's whole body, or a 408 when it has not all arrived within `timeoutMs`: one deadline, not an idle timer
 * a dribbling client could restart forever. A body of a declared length (held to `maxBytes` by the body guards,
 * before it is opened) is read whole by `arrayBuffer()`, which @hono/node-server reads straight from the socket,
 * not through a web stream (docs/performance.md); past the deadline it is left to the connection's close (the 408
 * closes it). A body of no declared length (chunked) is counted as it streams in: a 413 once over `maxBytes`.
 */
export async function readBody(request: Request, timeoutMs: number, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.has('content-length') && !request.headers.has('transfer-encoding');
  const reader = declared ? undefined : request.body?.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const message = `the request body did not arrive whole within ${timeoutMs} ms`;
      reject(new ShardlineError('request_timeout', message, { timeoutMs }));
      // After the rejection: cancelling ends the pending read as done, which would otherwise win the race
      // and hand the part read so far to the parser.
      reader?.cancel().catch(() => undefined);
    }, timeoutMs);
  });
  try {
    if (declared) {
      const whole = request.arrayBuffer();
      // Read on past a deadline, it fails when the connection closes: no one is left to hear it.
      whole.catch(() => undefined);
      return new Uint8Array(await Promise.race([whole, late]));
    }
    if (!reader) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        reader.cancel().catch(() => undefined);
        throw bodyTooLarge(maxBytes);
      }
      chunks.push(value);
    }
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(await new Blob(chunks).arrayBuffer());
  } finally {
    clearTimeout(timer);
  }
}

export function bodyTooLarge(maxBytes: number): ShardlineError {
  return new ShardlineError('payload_too_large', `the request body is over ${maxBytes} bytes`, {
    limitBytes: maxBytes,
  });
}
