import {
  capacityPlan,
  PARTITION_RCU,
  PARTITION_WCU,
  RCU_BYTES,
  WCU_BYTES,
  type CapacityPlan,
} from '../src/planning/capacity-plan';
import { numberArg, parseCommandLine, UsageError } from '../src/cli/command-line';

/**
 * `npm run plan -- --item-bytes 500 --reads-per-second 10000 --items-per-query 100
 * --writes-per-second 10000 [--consistent] [--json]`: the shard count a sorted
 * index needs from DynamoDB's per-partition limits, with the arithmetic shown.
 */
// The backslash continues the first line: one line of usage, two of code.
const USAGE = `Usage: npm run plan -- --item-bytes B --reads-per-second R --items-per-query Q \
--writes-per-second W [--consistent] [--json]

  --item-bytes B          size of one index item (keys + projected attributes)
  --reads-per-second R    listing queries per second
  --items-per-query Q     items one query returns
  --writes-per-second W   item writes per second
  --consistent            strongly consistent reads (half the read throughput; GSIs
                          only serve eventually consistent reads)
  --json                  print the plan as JSON`;

const mb = (bytes: number): string => `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 2 })} MB/s`;
const int = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

function explain(
  plan: CapacityPlan,
  input: {
    itemBytes: number;
    readsPerSecond: number;
    itemsPerQuery: number;
    writesPerSecond: number;
    consistent: boolean;
  },
): string {
  const { reads, writeBytes, writeUnits } = plan;
  const kind = input.consistent ? 'strongly consistent' : 'eventually consistent';
  return [
    `reads:  ${int(input.itemBytes)} B/item × ${int(input.readsPerSecond)} queries/s × ${int(input.itemsPerQuery)}` +
      ` items/query = ${mb(reads.bytesPerSecond)}`,
    `        per partition: ${int(PARTITION_RCU)} RCU × ${RCU_BYTES / 1024} KB${input.consistent ? '' : ' × 2'}` +
      ` (${kind}) = ${mb(reads.partitionBytesPerSecond)}`,
    `        ${mb(reads.bytesPerSecond)} ÷ ${mb(reads.partitionBytesPerSecond)}` +
      ` = ${int(reads.bytesPerSecond / reads.partitionBytesPerSecond)} → ${reads.shards} shards`,
    `writes: ${int(input.itemBytes)} B/item × ${int(input.writesPerSecond)} items/s = ${mb(writeBytes.bytesPerSecond)}`,
    `        per partition: ${int(PARTITION_WCU)} WCU × ${WCU_BYTES / 1024}` +
      ` KB = ${mb(writeBytes.partitionBytesPerSecond)}`,
    `        ${mb(writeBytes.bytesPerSecond)} ÷ ${mb(writeBytes.partitionBytesPerSecond)}` +
      ` = ${int(writeBytes.bytesPerSecond / writeBytes.partitionBytesPerSecond)} → ${writeBytes.shards} shards`,
    `        each write is billed in whole 1 KB units: ${writeUnits.unitsPerItem} WCU/item` +
      ` × ${int(input.writesPerSecond)} items/s = ${int(writeUnits.unitsPerSecond)}` +
      ` WCU/s ÷ ${int(PARTITION_WCU)} = ${int(writeUnits.unitsPerSecond / PARTITION_WCU)}` +
      ` → ${writeUnits.shards} shards`,
    `shards: ${plan.shards} (decided by ${plan.bindingLimit}; add headroom for uneven load)`,
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
    };
    try {
      return { plan: capacityPlan(input), input, json: values.json };
    } catch (error) {
      // What the plan cannot use (a zero item size) is a mistake in the command line.
      throw new UsageError((error as Error).message);
    }
  },
);
process.stdout.write(json ? `${JSON.stringify({ ...plan, input }, null, 2)}\n` : `${explain(plan, input)}\n`);
