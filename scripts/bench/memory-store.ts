import { compareKeys } from '../../src/core/collation';
import type { JsonObject } from '../../src/core/item';
import { inRange } from '../../src/core/key-range';
import type { ShardQuery } from '../../src/store/shard-query';
import type { ShardSource } from '../../src/service/listing/listing';
import type { ShardPage } from '../../src/store/store';

/**
 * An in-memory index behind the listing's port to the store, for simulating listings without
 * an engine: shards are sorted arrays of records, a query honours range, direction,
 * limit as DynamoDB does (resuming is a narrower range). It counts calls.
 */
export class MemoryStore implements ShardSource {
  readonly shards = new Map<string, JsonObject[]>();
  calls = 0;

  constructor(private readonly indexKey: string) {}

  add(shardKey: string, record: JsonObject): void {
    const list = this.shards.get(shardKey) ?? [];
    list.push(record);
    this.shards.set(shardKey, list);
  }

  sort(): void {
    for (const list of this.shards.values()) list.sort((a, b) => compareKeys(this.key(a), this.key(b)));
  }

  async queryShard(query: ShardQuery): Promise<ShardPage> {
    this.calls++;
    await new Promise((resolve) => setImmediate(resolve));
    const all = this.shards.get(query.shardKey) ?? [];
    const ordered = query.direction === 'asc' ? all : [...all].reverse();
    const items: JsonObject[] = [];
    for (const record of ordered) {
      if (items.length >= query.limit) break;
      if (inRange(this.key(record), query.range)) items.push(record);
    }
    const more =
      items.length === query.limit &&
      ordered.some((record) => inRange(this.key(record), query.range) && !items.includes(record));
    const last = items[items.length - 1];
    return { items, itemsRead: items.length, ...(more && last && { resumeAfter: this.key(last) }) };
  }

  private key(record: JsonObject): string {
    return record[this.indexKey] as string;
  }
}
