import type { PageSample } from './page-sample';
import { summarize, type Summary } from '../../devtools/stats';

/** One row of the bench: a way of listing, its pages with and without added latency. */
export interface RowFigures {
  readonly name: string;
  readonly kind: 'shardline' | 'naive';
  readonly collection: string;
  readonly shards: number;
  readonly pages: number;
  /** Items read ÷ items returned, per page. */
  readonly readRatio: Summary;
  readonly queries: Summary;
  readonly rcu: Summary | undefined;
  /** Router (or naive client) CPU per page, ms, without added latency. */
  readonly cpuMs: Summary;
  /** Page wall time against DynamoDB Local directly, ms. */
  readonly directMs: Summary;
  /** Page wall time with the fixed latency added to every DynamoDB call, ms. */
  readonly delayedMs: Summary;
  /** Sequential DynamoDB round trips per page (naive: 21 sequential, 1 parallel). */
  readonly roundTrips: Summary;
}

export function rowFigures(
  head: Pick<RowFigures, 'name' | 'kind' | 'collection' | 'shards'>,
  direct: readonly PageSample[],
  delayed: readonly PageSample[],
): RowFigures {
  // A naive walk can end on an empty page (a shard said "maybe more"); it returns nothing to divide by.
  const full = direct.filter((page) => page.returned > 0);
  const rcu = full.map((page) => page.rcu).filter((value): value is number => value !== undefined);
  return {
    ...head,
    pages: direct.length,
    readRatio: summarize(full.map((page) => page.itemsRead / page.returned)),
    queries: summarize(direct.map((page) => page.queries)),
    rcu: rcu.length > 0 ? summarize(rcu) : undefined,
    cpuMs: summarize(direct.map((page) => page.cpuMs)),
    directMs: summarize(direct.map((page) => page.ms)),
    delayedMs: summarize(delayed.map((page) => page.ms)),
    roundTrips: summarize(direct.map((page) => page.roundTrips)),
  };
}

/** A target from the issue and what was measured against it. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: number;
  readonly limit: number;
  readonly met: boolean;
}

export function check(target: string, measured: number, limit: number): TargetCheck {
  return { target, measured, limit, met: measured <= limit };
}
