import { median, quantile } from '../../devtools/stats';
import type { GroupResizeOutcome } from '../../src/reshard/group-resize';
import type { PageSample } from './page-sample';
import type { SdkPage } from './walk-sdk-query';

/** One way of reading a group's pages, over every page of every pass: medians, and the latency's p99. */
export interface PageFigures {
  readonly pages: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMs: number;
  readonly queries: number;
  readonly itemsRead: number;
  readonly readRatio: number;
  readonly roundTrips: number;
  /** Hedged queries ÷ queries sent, over all pages. */
  readonly hedged: number;
}

export function routerFigures(pages: readonly PageSample[]): PageFigures {
  const full = pages.filter((page) => page.returned > 0);
  const queries = pages.reduce((sum, page) => sum + page.queries, 0);
  return {
    ...timeFigures(pages),
    queries: median(pages.map((page) => page.queries)),
    itemsRead: median(pages.map((page) => page.itemsRead)),
    readRatio: median(full.map((page) => page.itemsRead / page.returned)),
    roundTrips: median(pages.map((page) => page.roundTrips)),
    hedged: pages.reduce((sum, page) => sum + (page.hedges ?? 0), 0) / queries,
  };
}

/** Latency (p50, p99) and router CPU of any walk's pages. */
function timeFigures(pages: readonly { readonly ms: number; readonly cpuMs: number }[]) {
  const ms = pages.map((page) => page.ms);
  return {
    pages: pages.length,
    p50: median(ms),
    p99: quantile(ms, 0.99),
    cpuMs: median(pages.map((page) => page.cpuMs)),
  };
}

/** The plain SDK's pages: one Query each, reading what it returns. */
export function sdkFigures(pages: readonly SdkPage[]): PageFigures {
  return {
    ...timeFigures(pages),
    queries: 1,
    itemsRead: median(pages.map((page) => page.returned)),
    readRatio: 1,
    roundTrips: 1,
    hedged: 0,
  };
}

const f = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const ratio = (value: number) => `**${f(value)}×**`;

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The columns every page table starts with: pages, latency, CPU and queries a page. */
const pageCells = (name: string, page: PageFigures) => [
  name,
  String(page.pages),
  f(page.p50),
  f(page.p99),
  f(page.cpuMs, 3),
  f(page.queries, 0),
];

/** A cold group's page against the plain one-partition Query of the same items. */
export function floorTable(cold: PageFigures, floor: PageFigures): string {
  return table(
    ['page of a cold group (one shard)', 'pages', 'p50 ms', 'p99 ms', 'CPU ms / page', 'queries / page'],
    [
      pageCells('shardline (router in process)', cold),
      pageCells('the floor: one Query, AWS SDK', floor),
      [
        'router ÷ floor',
        '',
        ratio(cold.p50 / floor.p50),
        ratio(cold.p99 / floor.p99),
        ratio(cold.cpuMs / floor.cpuMs),
        '',
      ],
    ],
  );
}

/** The whale's page (its group grown) against a cold group's. */
export function whaleTable(whale: PageFigures, cold: PageFigures, whaleShards: number): string {
  const row = (name: string, page: PageFigures) => [
    ...pageCells(name, page),
    f(page.itemsRead, 0),
    f(page.readRatio),
    f(page.roundTrips, 0),
    `${f(page.hedged * 100, 1)}%`,
  ];
  const times = (a: number, b: number) => ratio(a / b);
  return table(
    [
      'page',
      'pages',
      'p50 ms',
      'p99 ms',
      'CPU ms',
      'queries',
      'items read',
      'read ÷ returned',
      'round trips',
      'hedged',
    ],
    [
      row(`the whale (${whaleShards} shards)`, whale),
      row('a cold group (1 shard)', cold),
      [
        'whale ÷ cold',
        '',
        times(whale.p50, cold.p50),
        times(whale.p99, cold.p99),
        times(whale.cpuMs, cold.cpuMs),
        times(whale.queries, cold.queries),
        times(whale.itemsRead, cold.itemsRead),
        times(whale.readRatio, cold.readRatio),
        '',
        '',
      ],
    ],
  );
}

/** What each resize cost, as resizeGroup reports it, and its wall time. */
export function resizeTable(rows: readonly { name: string; outcome: GroupResizeOutcome & { ms: number } }[]): string {
  return table(
    ['change', 'group map writes', 'queries', 'write units', 'items moved', 'time ms'],
    rows.map(({ name, outcome }) => [
      name,
      String(outcome.mapWrites),
      String(outcome.queries),
      f(outcome.writeUnits, 0),
      String(outcome.moved),
      f(outcome.ms, 0),
    ]),
  );
}
