import type { Normalization } from './normalize';
import type { ShardStrategy } from './strategies';

export type KeyType = 'S' | 'N';

export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

/**
 * One sorted index over one kind of item, resolved from the config: where its
 * items live, which field orders them, how that field is normalized and sharded.
 */
export interface Collection {
  readonly name: string;
  readonly table: string;
  readonly index: string;
  /** The table's primary key, partition key first. */
  readonly primaryKey: readonly KeyAttribute[];
  /** Attribute holding the shard partition key (`<prefix>#<shard>`) of the index. */
  readonly shardKeyAttribute: string;
  /** Attribute holding the index sort key (value + U+0000 + primary key). */
  readonly indexKeyAttribute: string;
  /** The item field whose value is ordered. */
  readonly field: string;
  readonly prefix: string;
  readonly normalization: Normalization;
  readonly strategy: ShardStrategy;
}
