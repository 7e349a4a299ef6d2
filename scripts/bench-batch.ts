/**
 * `npm run bench:batch`: what one big batch costs the Node server. Over DynamoDB Local (its
 * own process), POSTs one batch of `--items` items of `--kb` KB each (default 1,000 × 16 KB: a
 * 16 MB body, under the 16 MiB limit) while /healthz is probed every 100 ms. Prints whether
 * every item was written or reported, the server's peak RSS growth (VmHWM, Linux) and the
 * worst probe. Targets (issue: bounded memory per request): growth < 256 MiB, probes < 1 s.
 */
import { readFileSync } from 'node:fs';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { startServerProcess } from './bench/server-process';

const USAGE = `Usage: npm run bench:batch -- [--items N] [--kb K]

One batch of N items (default 1000) of K KB (default 16) against the Node server over
DynamoDB Local; prints written/failed, peak RSS growth and the worst /healthz answer.`;

const options = parseCommandLine(
  'bench:batch',
  USAGE,
  { options: { items: { type: 'string', default: '1000' }, kb: { type: 'string', default: '16' } } },
  ({ values }) => ({
    items: numberArg('items', values.items, { min: 1, integer: true }),
    kb: numberArg('kb', values.kb, { min: 1, integer: true }),
  }),
);

/** A figure of /proc/<pid>/status in MiB: VmRSS now, VmHWM the peak so far. */
function memoryFigure(pid: number, name: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${name} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const engine = await startDynamoDbLocal();
const server = await startServerProcess(engine.endpoint, { LOG_LEVEL: 'off' });
try {
  const pid = server.child.pid!;
  await fetch(`${server.base}/collections/albums-hash/items?limit=1`);
  const before = memoryFigure(pid, 'VmHWM');
  const filler = 'x'.repeat(options.kb * 1024 - 100);
  const items = Array.from({ length: options.items }, (_, i) => ({
    pk: `big${i}`,
    sk: 'album',
    title: `Big ${i}`,
    filler,
  }));
  const body = JSON.stringify({ items });
  let worst = 0;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      await (await fetch(`${server.base}/healthz`)).arrayBuffer();
      worst = Math.max(worst, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${server.base}/collections/albums-hash/items/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = (await response.json()) as { written?: number; failed?: unknown[] };
  const ms = performance.now() - started;
  probing = false;
  await probe;
  const growth = memoryFigure(pid, 'VmHWM') - before;
  const accounted = (answer.written ?? 0) + (answer.failed?.length ?? 0);
  const mib = (body.length / 2 ** 20).toFixed(1);
  console.log(`batch of ${options.items} × ${options.kb} KB (${mib} MiB body)`);
  const outcome = `${answer.written} written, ${answer.failed?.length} failed`;
  console.log(`  answer      ${response.status}: ${outcome}, in ${ms.toFixed(0)} ms`);
  console.log(`  accounted   ${accounted} of ${options.items} items (target: all)`);
  console.log(`  peak RSS    +${growth.toFixed(0)} MiB (target < 256)`);
  console.log(`  /healthz    worst ${worst.toFixed(0)} ms (target < 1000)`);
} finally {
  await server.stop();
  await engine.stop();
}
