import { Worker } from 'node:worker_threads';

/** How long the main thread may give no sign of life (a beat every BEAT_EVERY_MS) before the port says unready. */
const MAIN_THREAD_SILENT_MS = 10_000;
const BEAT_EVERY_MS = 500;
/** How often the health port asks the main thread for a fresh answer, at most (the check itself is cached too). */
const ASK_EVERY_MS = 1000;
/**
 * The first probe after a quiet spell this long, the last answer as old, waits up to WAIT_AT_MOST_MS for a fresh
 * one; probes in a row never wait, so a main thread slow to answer delays no probe.
 */
const FRESH_ENOUGH_MS = 5000;
const WAIT_AT_MOST_MS = 500;

/**
 * The health port's thread as plain JavaScript run with `eval`, so it needs neither tsx nor a file beside a bundle.
 * It answers GET /healthz from the main thread's last answer, asking for a new one as the constants above say.
 */
const WORKER_SOURCE = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { host, port } = workerData;
const [silentMs, askEveryMs, freshEnoughMs, waitAtMostMs] =
  [${MAIN_THREAD_SILENT_MS}, ${ASK_EVERY_MS}, ${FRESH_ENOUGH_MS}, ${WAIT_AT_MOST_MS}];
let last;
let beatAt = Date.now();
let askedAt = 0;
let probedAt = 0;
const waiting = [];
parentPort.on('message', (message) => {
  beatAt = Date.now();
  if (message === 'beat') return;
  last = message;
  for (const wake of waiting.splice(0)) wake();
});
const send = (response, status, body) => {
  response.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
};
const refuse = (response, status, code, message) =>
  send(response, status, JSON.stringify({ error: { code, message } }));
const server = createServer(async (request, response) => {
  if (request.url.split('?')[0] !== '/healthz') {
    return refuse(response, 404, 'route_not_found', 'this port answers GET /healthz only');
  }
  const now = Date.now();
  const quiet = now - probedAt > freshEnoughMs;
  probedAt = now;
  if (now - beatAt > silentMs) {
    const silentFor = Math.round((now - beatAt) / 1000);
    return refuse(response, 503, 'unavailable', 'the server has given no sign of life for ' + silentFor + ' s');
  }
  if ((!last || now - last.at >= askEveryMs) && now - askedAt >= askEveryMs) {
    askedAt = now;
    parentPort.postMessage('check');
  }
  if (!last || (quiet && now - last.at > freshEnoughMs)) {
    await new Promise((wake) => { waiting.push(wake); setTimeout(wake, waitAtMostMs); });
  }
  if (!last) return refuse(response, 503, 'unavailable', 'the server is starting');
  send(response, last.status, last.body);
});
server.on('error', (error) => parentPort.postMessage({ error: error.message }));
server.listen(port, host, () => parentPort.postMessage({ listening: server.address().port }));
`;

export interface HealthListener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * `/healthz` on a port (HEALTH_PORT) and thread of its own: a probe is answered however busy the main event loop
 * is, where on the main port every new connection waits its turn. The answer is the main port's own (`check`).
 */
export function startHealthListener(
  host: string,
  port: number,
  check: () => Promise<{ status: number; body: string }>,
): Promise<HealthListener> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { host, port } });
  worker.unref();
  // A sign of life with no I/O: a main thread stuck (a blocked event loop) stops it, an idle one does not.
  const beat = setInterval(() => worker.postMessage('beat'), BEAT_EVERY_MS);
  beat.unref();
  // The app's answer as it gave it, and when (ms since the epoch).
  const answer = async () => {
    const { status, body } = await check().catch((error: Error) => ({
      status: 503,
      body: JSON.stringify({ error: { code: 'unavailable', message: error.message } }),
    }));
    worker.postMessage({ status, body, at: Date.now() });
  };
  return new Promise((resolveListener, reject) => {
    worker.on('message', (message: 'check' | { listening?: number; error?: string }) => {
      if (message === 'check') return void answer();
      if (message.error !== undefined) return reject(new Error(`HEALTH_PORT ${port}: ${message.error}`));
      if (message.listening === undefined) return;
      void answer();
      resolveListener({
        port: message.listening,
        async close() {
          clearInterval(beat);
          await worker.terminate();
        },
      });
    });
    worker.once('error', reject);
  });
}
