import { parseArgs } from 'node:util';
import {
  capacityPlan,
  PARTITION_RCU,
  PARTITION_WCU,
  RCU_BYTES,
  WCU_BYTES,
  type CapacityPlan,
} from '../src/planning/capacity-plan';

/**
 * `npm run plan -- --item-bytes 500 --reads-per-second 10000 --items-per-query 100
 * --writes-per-second 10000 [--consistent] [--json]`: the shard count a sorted
 * index needs from DynamoDB's per-partition limits, with the arithmetic shown.
 */
const USAGE = `Usage: npm run plan -- --item-bytes B --reads-per-second R --items-per-query Q --writes-per-second W [--consistent] [--json]

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
    `reads:  ${int(input.itemBytes)} B/item × ${int(input.readsPerSecond)} queries/s × ${int(input.itemsPerQuery)} items/query = ${mb(reads.bytesPerSecond)}`,
    `        per partition: ${int(PARTITION_RCU)} RCU × ${RCU_BYTES / 1024} KB${input.consistent ? '' : ' × 2'} (${kind}) = ${mb(reads.partitionBytesPerSecond)}`,
    `        ${mb(reads.bytesPerSecond)} ÷ ${mb(reads.partitionBytesPerSecond)} = ${int(reads.bytesPerSecond / reads.partitionBytesPerSecond)} → ${reads.shards} shards`,
    `writes: ${int(input.itemBytes)} B/item × ${int(input.writesPerSecond)} items/s = ${mb(writeBytes.bytesPerSecond)}`,
    `        per partition: ${int(PARTITION_WCU)} WCU × ${WCU_BYTES / 1024} KB = ${mb(writeBytes.partitionBytesPerSecond)}`,
    `        ${mb(writeBytes.bytesPerSecond)} ÷ ${mb(writeBytes.partitionBytesPerSecond)} = ${int(writeBytes.bytesPerSecond / writeBytes.partitionBytesPerSecond)} → ${writeBytes.shards} shards`,
    `        each write is billed in whole 1 KB units: ${writeUnits.unitsPerItem} WCU/item × ${int(input.writesPerSecond)} items/s = ${int(writeUnits.unitsPerSecond)} WCU/s ÷ ${int(PARTITION_WCU)} = ${int(writeUnits.unitsPerSecond / PARTITION_WCU)} → ${writeUnits.shards} shards`,
    `shards: ${plan.shards} (decided by ${plan.bindingLimit}; add headroom for uneven load)`,
  ].join('\n');
}

function main(argv: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        'item-bytes': { type: 'string' },
        'reads-per-second': { type: 'string' },
        'items-per-query': { type: 'string' },
        'writes-per-second': { type: 'string' },
        consistent: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    process.stderr.write(`plan: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const number = (name: 'item-bytes' | 'reads-per-second' | 'items-per-query' | 'writes-per-second'): number => {
    const raw = values[name];
    const value = Number(raw);
    if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || value < 0) {
      throw new Error(`--${name} must be a non-negative number${raw === undefined ? '' : `, not ${raw}`}`);
    }
    return value;
  };
  try {
    const input = {
      itemBytes: number('item-bytes'),
      readsPerSecond: number('reads-per-second'),
      itemsPerQuery: number('items-per-query'),
      writesPerSecond: number('writes-per-second'),
      consistent: values.consistent,
    };
    const plan = capacityPlan(input);
    process.stdout.write(
      values.json ? `${JSON.stringify({ ...plan, input }, null, 2)}\n` : `${explain(plan, input)}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`plan: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
