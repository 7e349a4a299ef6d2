import {
  capacityPlan,
  PARTITION_RCU,
  PARTITION_WCU,
  WCU_BYTES,
  type CapacityInput,
  type CapacityPlan,
} from '../src/planning/capacity-plan';
import { inWords, sortedStrategyNames, strategyNames } from '../src/core/strategies';
import { invalidRequest } from '../src/core/errors';
import { numberArg, parseCommandLine } from '../src/cli/command-line';

/**
 * `npm run plan -- --item-bytes 500 --reads-per-second 10000 --items-per-query 100
 * --writes-per-second 10000 [--strategy S] [--consistent] [--json]`:
 * the shard count a sorted index needs from DynamoDB's per-partition limits, with
 * the arithmetic shown.
 */
/** The strategies by name, range (the default) first: the rest fan a listing out to every shard. */
const STRATEGIES = sortedStrategyNames('range');

// The backslash continues the first line: one line of usage, two of code.
const USAGE = `Usage: npm run plan -- --item-bytes B --reads-per-second R --items-per-query Q \
--writes-per-second W [--strategy ${STRATEGIES.join('|')}] [--consistent] [--json]

  --item-bytes B          size of one index item (keys + projected attributes)
  --reads-per-second R    listing queries per second
  --items-per-query Q     items one query returns
  --writes-per-second W   item writes per second
  --strategy S            how listings read the shards: range (one shard a listing, the
                          default), ${inWords(STRATEGIES.slice(1))} (every shard, every listing)
  --consistent            strongly consistent reads (half the read throughput; GSIs
                          only serve eventually consistent reads)
  --json                  print the plan as JSON`;

const mb = (bytes: number): string => `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 2 })} MB/s`;
const int = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

function explainReads(plan: CapacityPlan, input: Required<CapacityInput>): string[] {
  const { reads } = plan;
  const price = input.consistent ? '1 RCU (strongly consistent)' : '0.5 RCU (eventually consistent)';
  const query =
    `${int(reads.itemsPerQuery)} items × ${int(input.itemBytes)} B = ${int(reads.itemsPerQuery * input.itemBytes)} B` +
    ` → ${reads.unitsPerQuery} × 4 KB units × ${price} = ${int(reads.rcuPerQuery)} RCU per query`;
  if (reads.strategy === 'range') {
    return [
      `reads (range): one query on one shard a listing: ${query}`,
      `        ${int(input.readsPerSecond)} queries/s × ${int(reads.rcuPerQuery)} RCU` +
        ` = ${int(input.readsPerSecond * reads.rcuPerQuery)} RCU/s ÷ ${int(PARTITION_RCU)} RCU per partition` +
        ` = ${int((input.readsPerSecond * reads.rcuPerQuery) / PARTITION_RCU)} → ${reads.shards} shards`,
    ];
  }
  const lines = [
    `reads (${reads.strategy}): a listing queries every shard for its share, so every shard serves every listing`,
    `        with ${int(reads.queriesPerListing)} shards: ${query}`,
    `        each shard: ${int(input.readsPerSecond)} queries/s × ${int(reads.rcuPerQuery)} RCU` +
      ` = ${int(reads.rcuPerSecondPerShard)} RCU/s against ${int(PARTITION_RCU)} per partition`,
  ];
  if (reads.shards === null) {
    lines.push(
      `        → no shard count serves these listings: each query costs at least ${int(reads.rcuPerQuery)} RCU` +
        ' however small; use range, or fewer listings per second',
    );
  } else {
    lines.push(`        → ${reads.shards} shards`);
  }
  return lines;
}

function explain(plan: CapacityPlan, input: Required<CapacityInput>): string {
  const { writeBytes, writeUnits } = plan;
  return [
    ...explainReads(plan, input),
    `writes: ${int(input.itemBytes)} B/item × ${int(input.writesPerSecond)} items/s = ${mb(writeBytes.bytesPerSecond)}`,
    `        per partition: ${int(PARTITION_WCU)} WCU × ${WCU_BYTES / 1024}` +
      ` KB = ${mb(writeBytes.partitionBytesPerSecond)}`,
    `        ${mb(writeBytes.bytesPerSecond)} ÷ ${mb(writeBytes.partitionBytesPerSecond)}` +
      ` = ${int(writeBytes.bytesPerSecond / writeBytes.partitionBytesPerSecond)} → ${writeBytes.shards} shards`,
    `        each write is billed in whole 1 KB units: ${writeUnits.unitsPerItem} WCU/item` +
      ` × ${int(input.writesPerSecond)} items/s = ${int(writeUnits.unitsPerSecond)}` +
      ` WCU/s ÷ ${int(PARTITION_WCU)} = ${int(writeUnits.unitsPerSecond / PARTITION_WCU)}` +
      ` → ${writeUnits.shards} shards`,
    plan.shards === null
      ? `shards: none serves this load with ${input.strategy} listings`
      : `shards: ${plan.shards} (decided by ${plan.bindingLimit}; add headroom for uneven load)`,
  ].join('\n');
}

const { plan, input, json } = parseCommandLine(
  'plan',
  USAGE,
  {
    options: {
      'item-bytes': { type: 'string' },
      'reads-per-second': { type: 'string' },
      'items-per-query': { type: 'string' },
      'writes-per-second': { type: 'string' },
      strategy: { type: 'string', default: 'range' },
      consistent: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  },
  ({ values }) => {
    const input = {
      itemBytes: numberArg('item-bytes', values['item-bytes']),
      readsPerSecond: numberArg('reads-per-second', values['reads-per-second']),
      itemsPerQuery: numberArg('items-per-query', values['items-per-query']),
      writesPerSecond: numberArg('writes-per-second', values['writes-per-second']),
      consistent: values.consistent,
      strategy: values.strategy,
    };
    if (!strategyNames().includes(input.strategy)) {
      throw invalidRequest(`--strategy must be ${inWords(STRATEGIES)}, not ${values.strategy}`);
    }
    // What the plan cannot use (a zero item size) is a mistake in the command line: its `invalid_request`.
    return { plan: capacityPlan(input), input, json: values.json };
  },
);
process.stdout.write(json ? `${JSON.stringify({ ...plan, input }, null, 2)}\n` : `${explain(plan, input)}\n`);
