import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../devtools/dynamodb-local';
import { type ServerProcess, startServerProcess } from '../../scripts/bench/server-process';
import { OrderLedger, orderDate, walkOrders, writeOrders } from './order-ledger';
import { GROUPS_CONFIG } from './support';

const GROUPS = 60_000;
const BATCH = 1000;
/** Batches in flight at once: enough to keep the engine busy, few enough for two cores. */
const IN_FLIGHT = 3;
const LISTED = 300;
const CHUNK = IN_FLIGHT * BATCH;
const MIB = 1024 * 1024;

/**
 * A router that has written 60,000 groups and listed a few hundred keeps nothing per group it
 * has seen: its RSS, after a full GC, grows by less than 96 MiB, and its JS heap by less than
 * 16 MiB. The router runs in its own process, as deployed (scripts/bench/server-process.ts asks
 * it for its memory, after a full GC).
 */
describe('a router over many groups on DynamoDB Local (its own)', () => {
  it(`grows its RSS by < 96 MiB over ${GROUPS} groups written and ${LISTED} listed`, { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shardline-groups-memory-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(GROUPS_CONFIG));
    let server: ServerProcess | undefined;
    // An engine of its own: 60,000 writes would starve the shared one the other test files run on.
    const engine = await startDynamoDbLocal();
    try {
      server = await startServerProcess(
        engine.endpoint,
        {
          TABLE_NAME: `t-${randomUUID()}`,
          SHARDLINE_CONFIG: join(dir, 'config.json'),
          CURSOR_SECRET: 'groups-memory-test-secret-groups-memory',
          // Metrics on, as deployed: their counters must not grow with the groups either.
          SHARDLINE_METRICS: 'true',
          REQUEST_TIMEOUT_MS: '60000',
        },
        { drainLogs: true },
      );
      const { base } = server;
      const ledger = new OrderLedger();
      const orders = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({
          pk: `o${from + i}`,
          customerId: `customer-${from + i}`,
          orderDate: orderDate(from + i),
        }));
      const writeAll = async (from: number, to: number) => {
        let next = from;
        const writer = async () => {
          for (let at = next; at < to; at = next) {
            next += BATCH;
            const failed = await writeOrders(base, ledger, orders(at, Math.min(BATCH, to - at)));
            if (failed.length > 0) throw new Error(`${failed.length} orders not written, ${failed[0]!.pk} first`);
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
      };
      // Every path the measure takes, taken once before it starts, in the same shape: code loaded,
      // pools filled, and the heap grown to what batches this size in flight at once need.
      await writeAll(GROUPS, GROUPS + CHUNK);
      for (let g = 0; g < 20; g++) await walkOrders([base], ledger, `customer-${GROUPS + g}`, 2);
      const before = await server.memory();

      // A full GC after every chunk of the warm-up's shape. Between two collections a burst of writes
      // leaves garbage, much of it outside the JS heap, whose pages the allocator keeps: without these
      // collections 30,000 writes grew RSS by 110 MiB or more, as much over 20 groups as over 20,000.
      // What stays after a collection is what the router keeps.
      const rss: number[] = [];
      for (let from = 0; from < GROUPS; from += CHUNK) {
        await writeAll(from, Math.min(GROUPS, from + CHUNK));
        rss.push(Math.round((await server.memory()).rss / MIB));
      }
      for (let g = 0; g < LISTED; g++) {
        const walk = await walkOrders([base], ledger, `customer-${Math.floor((g * GROUPS) / LISTED)}`, 2);
        expect(walk.problems).toEqual([]);
        expect(walk.items).toBe(1);
      }
      const after = await server.memory();

      const mib = (bytes: number) => (bytes / MIB).toFixed(1);
      const trail =
        `RSS ${mib(before.rss)} MiB, then ${rss.join(', ')} MiB every ${CHUNK} groups, ${mib(after.rss)} MiB ` +
        `after the listings; heap used ${mib(before.heapUsed)} → ${mib(after.heapUsed)} MiB`;
      expect((after.rss - before.rss) / MIB, trail).toBeLessThan(96);
      // The JS heap after a full GC, with none of the allocator's slack: 16 MiB is 280 bytes a group.
      expect((after.heapUsed - before.heapUsed) / MIB, trail).toBeLessThan(16);
    } finally {
      await server?.stop();
      await engine.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
