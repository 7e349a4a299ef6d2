import { ShardlineError } from '../core/errors';

/** How long a request body may stop arriving before the request is cut (BODY_IDLE_TIMEOUT_MS). */
export const DEFAULT_BODY_IDLE_MS = 30_000;

/**
 * A request's whole body, or a 408 `request_timeout` when no byte of it arrives for `idleMs`:
 * a client that sends the headers and stops would otherwise hold the connection (and the
 * request's memory) until the server's own 300 s limit. A body that keeps arriving, however
 * slowly, is read to its end; its size is bounded by the body limit in front of this.
 */
export async function readBody(request: Request, idleMs: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ShardlineError('request_timeout', `the request body stopped arriving: nothing for ${idleMs} ms`, {
              idleMs,
            }),
          ),
        idleMs,
      );
    });
    try {
      const { done, value } = await Promise.race([reader.read(), stalled]);
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    } finally {
      clearTimeout(timer);
    }
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
