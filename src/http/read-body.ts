import { ShardlineError } from '../core/errors';

/** How long a request body may take to arrive whole before the request is cut (BODY_TIMEOUT_MS). */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;

/**
 * A request's whole body, or a 408 when it has not all arrived within `timeoutMs`: one deadline for the whole
 * body, not an idle timer a byte every few seconds would restart forever, so a client dribbling its body holds
 * the request and its memory for `timeoutMs` at most (the body limit in front of this bounds its size).
 */
export async function readBody(request: Request, timeoutMs: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const message = `the request body did not arrive whole within ${timeoutMs} ms`;
      reject(new ShardlineError('request_timeout', message, { timeoutMs }));
      void reader.cancel().catch(() => undefined);
    }, timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) break;
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(await new Blob(chunks).arrayBuffer());
}
