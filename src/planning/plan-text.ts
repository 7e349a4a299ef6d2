import { PARTITION_RCU, PARTITION_WCU, WCU_BYTES, type CapacityInput, type CapacityPlan } from './capacity-plan';
import { groupInput, type GroupedCapacityInput, type GroupedCapacityPlan, type GroupLoad } from './group-plan';

// `npm run plan`'s explanations: every figure of a plan with the arithmetic that gives it.

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

export function explain(plan: CapacityPlan, input: Required<CapacityInput>): string {
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

/** A grouped collection's plan: each kind of group explained as the index of its own it is, then the sum. */
export function explainGrouped(plan: GroupedCapacityPlan, input: GroupedCapacityInput): string {
  const kind = (load: GroupLoad) =>
    explain(load.plan, groupInput(input, load))
      .split('\n')
      .map((line) => `    ${line}`);
  const rates = (load: GroupLoad) =>
    `${int(load.readsPerSecond)} queries/s, ${int(load.writesPerSecond)} items written/s`;
  const { typical, hot } = plan;
  const lines = [
    `grouped: ${int(plan.groups)} groups, each an index of its own (random over its shard keys ` +
      '<prefix>#<group>#<shard>), sized from its own load',
    `typical group (${int(typical.count)} of them${hot ? ', the even share of what the hot ones leave' : ''}): ` +
      rates(typical),
    ...kind(typical),
  ];
  if (hot) lines.push(`hot group (${int(hot.count)} of them, each): ${rates(hot)}`, ...kind(hot));
  if (plan.shardKeys === null) {
    lines.push('shard keys: none serves this load: some group has more listings than any shard count serves');
    return lines.join('\n');
  }
  const sum = [`${int(typical.count)} × ${typical.shards}`, ...(hot ? [`${int(hot.count)} hot × ${hot.shards}`] : [])];
  lines.push(
    `shard keys: ${sum.join(' + ')} = ${int(plan.shardKeys)}: groups × shards, each key at most one partition's ` +
      `${int(PARTITION_RCU)} RCU/s and ${int(PARTITION_WCU)} WCU/s (DynamoDB spreads the keys over partitions)`,
    `config: "strategy": {"kind": "random", "shards": ${plan.defaultShards}} (every group's default)` +
      (hot && hot.shards !== plan.defaultShards
        ? `; grow each hot group: npm run reshard -- --collection C --group G --shards ${hot.shards}`
        : ''),
  );
  return lines.join('\n');
}
