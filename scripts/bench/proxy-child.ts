import { startDynamoProxy } from '../../test/support/dynamo-proxy';

/**
 * The delaying proxy: every DynamoDB call waits `delayMs`, then goes to the engine
 * unchanged. It runs as a process of its own so that its CPU never counts as the
 * router's: `proxy-child.ts <target> <delayMs>` prints its endpoint as one JSON line
 * and runs until its stdin closes (the bench ending, however it ends).
 */
const [target, delay] = process.argv.slice(2);
if (!target) throw new Error('usage: proxy-child.ts <target endpoint> <delay ms>');
const delayMs = Number(delay ?? '20');

const proxy = await startDynamoProxy(target, () => ({ kind: 'forward', delayMs }));
process.stdout.write(JSON.stringify({ endpoint: proxy.endpoint }) + '\n');
const stop = () => void proxy.close().then(() => process.exit(0));
process.stdin.resume();
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
