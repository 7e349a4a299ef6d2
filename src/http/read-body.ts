import { ShardlineError } from '../core/errors';

/** How long a request body may stop arriving before the request is cut (BODY_IDLE_TIMEOUT_MS). */
export const DEFAULT_BODY_IDLE_MS = 30_000;

/**
 * A request's whole body, or a 408 when no byte of it arrives for `idleMs`: a client that sends the headers and
 * stops would otherwise hold the connection and the request's memory until the server's own 300 s limit. A body
 * that keeps arriving, however slowly, is read to its end (the body limit in front of this bounds it).
 */
export async function readBody(request: Request, idleMs: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  const message = `the request body stopped arriving: nothing for ${idleMs} ms`;
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ShardlineError('request_timeout', message, { idleMs })), idleMs);
    });
    try {
      const { done, value } = await Promise.race([reader.read(), stalled]);
      if (done) break;
      chunks.push(value);
    } finally {
      clearTimeout(timer);
    }
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(await new Blob(chunks).arrayBuffer());
}
