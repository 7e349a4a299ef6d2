import { get } from 'node:http';

/** One probe's outcome: the status (or the error's message) and how long it took. */
export interface ProbeResult {
  readonly status: number | string;
  readonly ms: number;
}

/**
 * GET `path` on 127.0.0.1:`port` over a connection of its own (no keep-alive pool), as a load balancer probes:
 * what it answered and how long the connection, the request and the answer took together.
 */
export function probeOnNewConnection(port: number, path = '/healthz', timeoutMs = 10_000): Promise<ProbeResult> {
  const started = performance.now();
  return new Promise((resolveProbe) => {
    const request = get({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on('end', () => resolveProbe({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    request.on('timeout', () => request.destroy(new Error('probe timed out')));
    request.on('error', (error) => resolveProbe({ status: error.message, ms: performance.now() - started }));
  });
}
