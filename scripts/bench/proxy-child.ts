import { connect, createServer, type Socket } from 'node:net';

/**
 * The delaying proxy: every byte a client sends reaches the engine `delayMs` later,
 * in order; answers come straight back. So every DynamoDB call waits `delayMs`, as
 * over a network, and nothing else changes: the proxy does not parse HTTP, so it
 * costs next to no CPU per call — an HTTP proxy's work per call would land on the
 * cores the router and the engine share, and weigh on fan-out pages above all.
 *
 * With a third argument σ the delay is skewed as real network and service times are: each
 * call's is drawn from a lognormal whose median is `delayMs` (one draw per call: a
 * connection carries one request at a time, and its bytes keep their order).
 *
 * It runs as a process of its own, so that what little CPU it uses never counts as
 * the router's: `proxy-child.ts <target> <delayMs> [σ]` prints its endpoint as one JSON
 * line and runs until its stdin closes (the bench ending, however it ends).
 */
const [target, delay, spread] = process.argv.slice(2);
if (!target) throw new Error('usage: proxy-child.ts <target endpoint> <delay ms> [lognormal sigma]');
const delayMs = Number(delay ?? '20');
const sigma = spread === undefined ? 0 : Number(spread);

/** One call's delay: fixed, or lognormal around the median (Box–Muller for the normal draw). */
function callDelay(): number {
  if (sigma === 0) return delayMs;
  const normal = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  return delayMs * Math.exp(sigma * normal);
}
const { hostname, port } = new URL(target);

const open = new Set<Socket>();
const server = createServer((client) => {
  const engine = connect({ host: hostname, port: Number(port) });
  for (const socket of [client, engine]) {
    socket.setNoDelay(true);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    // Either side failing ends the pair, as a dropped connection would.
    socket.on('error', () => {
      client.destroy();
      engine.destroy();
    });
  }
  // A call's chunks share one release time, and timers due at one time fire in the order they
  // were set: the bytes stay in order. A chunk after the release starts the next call.
  let releaseAt = 0;
  const later = (write: () => void) => {
    const now = performance.now();
    if (releaseAt <= now) releaseAt = now + callDelay();
    setTimeout(write, releaseAt - now);
  };
  client.on('data', (chunk) => later(() => engine.write(chunk)));
  client.on('end', () => later(() => engine.end()));
  engine.pipe(client);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy: no TCP address');
  process.stdout.write(JSON.stringify({ endpoint: `http://127.0.0.1:${address.port}` }) + '\n');
});

const stop = () => {
  for (const socket of open) socket.destroy();
  server.close(() => process.exit(0));
};
process.stdin.resume();
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
