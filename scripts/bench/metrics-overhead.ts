import { prometheusExporter } from '../../src/runtime/node/prometheus';
import type { Service } from '../../src/runtime/service';
import { mean, median } from '../../devtools/stats';
import { seededRandom } from '../../devtools/random';
import { benchService } from './fixture';
import { albumItem } from './items';
import { measured } from './page-sample';
import { walkRouter } from './walk-router';

/** Router CPU with metrics on against off: per page of a listing and per single-item write. */
export interface MetricsOverhead {
  readonly collection: string;
  readonly pages: number;
  readonly writes: number;
  /** CPU ms per page, median and mean, off and on; `ratio` = on ÷ off of the means. */
  readonly page: { off: { p50: number; mean: number }; on: { p50: number; mean: number }; ratio: number };
  readonly write: { off: { p50: number; mean: number }; on: { p50: number; mean: number }; ratio: number };
}

/**
 * Two services over the same loaded table, one with SHARDLINE_METRICS on (router statistics,
 * hot keys, the Prometheus latency histogram) and one with it off, request logs off in both.
 * They take turns page by page and write by write, so drift in the machine's load falls on
 * both alike. Means compare the whole CPU spent; medians show the typical page.
 */
export async function metricsOverhead(
  endpoint: string,
  collection: string,
  options: { pageSize: number; rounds: number; writesPerRound: number },
): Promise<MetricsOverhead> {
  const on = benchService(endpoint, { SHARDLINE_METRICS: 'true' }, prometheusExporter);
  const off = benchService(endpoint, { SHARDLINE_METRICS: 'false' });
  const side = (name: 'on' | 'off') => (name === 'on' ? on : off);
  const pages = { on: [] as number[], off: [] as number[] };
  const writes = { on: [] as number[], off: [] as number[] };
  // Warm both: JIT, connections, shard maps.
  for (const service of [on, off]) {
    await walkRouter(service.app, collection, options.pageSize);
    await writeItems(service, collection, 50, 0);
  }
  for (let round = 0; round < options.rounds; round++) {
    // Page by page in turns (the order swapped each round), so drift in the machine's load
    // falls on both sides alike; then the writes, the same way.
    const first = round % 2 === 0 ? 'on' : 'off';
    const second = first === 'on' ? 'off' : 'on';
    const walks = {
      on: pageWalker(on, collection, options.pageSize),
      off: pageWalker(off, collection, options.pageSize),
    };
    for (;;) {
      const a = await walks[first]();
      const b = await walks[second]();
      if (a === undefined || b === undefined) break;
      pages[first].push(a);
      pages[second].push(b);
    }
    for (let n = 0; n < options.writesPerRound; n++) {
      writes[first].push(...(await writeItems(side(first), collection, 1, round * options.writesPerRound + n)));
      writes[second].push(...(await writeItems(side(second), collection, 1, round * options.writesPerRound + n)));
    }
  }
  const figures = (values: number[]) => ({ p50: median(values), mean: mean(values) });
  return {
    collection,
    pages: pages.on.length,
    writes: writes.on.length,
    page: { off: figures(pages.off), on: figures(pages.on), ratio: mean(pages.on) / mean(pages.off) },
    write: { off: figures(writes.off), on: figures(writes.on), ratio: mean(writes.on) / mean(writes.off) },
  };
}

/** Reads a listing one page per call (the CPU ms of each); undefined once it is done. */
function pageWalker(service: Service, collection: string, pageSize: number): () => Promise<number | undefined> {
  let cursor: string | null | undefined;
  return async () => {
    if (cursor === null) return undefined;
    const [page] = await walkRouter(service.app, collection, pageSize, 1, cursor);
    cursor = page!.nextCursor;
    return page!.cpuMs;
  };
}

/** PUTs `count` items one at a time (overwriting the same keys each round); the CPU ms of each. */
async function writeItems(service: Service, collection: string, count: number, first: number): Promise<number[]> {
  const random = seededRandom(first);
  const cpu: number[] = [];
  for (let n = first; n < first + count; n++) {
    const item = { ...albumItem(random, n, `Overhead ${n % 97}`), pk: `overhead#${collection}#${n % 400}` };
    const { value: status, cpuMs } = await measured(async () => {
      const response = await service.app.request(`/collections/${collection}/items`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(item),
      });
      await response.arrayBuffer();
      return response.status;
    });
    if (status !== 201 && status !== 200) throw new Error(`write to ${collection}: ${status}`);
    cpu.push(cpuMs);
  }
  return cpu;
}

/** The figures as the bench prints them. */
export function overheadLines(o: MetricsOverhead): string {
  const ms = (x: number) => x.toFixed(3);
  const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
  return [
    `metrics overhead on ${o.collection} (router CPU, metrics off → on; target ≤ +5 % per page):`,
    `  per page (${o.pages} pages each): mean ${ms(o.page.off.mean)} → ${ms(o.page.on.mean)} ms` +
      ` (${pct(o.page.ratio)}), median ${ms(o.page.off.p50)} → ${ms(o.page.on.p50)} ms`,
    `  per write (${o.writes} PUTs each): mean ${ms(o.write.off.mean)} → ${ms(o.write.on.mean)} ms` +
      ` (${pct(o.write.ratio)}), median ${ms(o.write.off.p50)} → ${ms(o.write.on.p50)} ms`,
  ].join('\n');
}
