import type { CollectionSpec, RoutedCollection } from '../core/collection';
import type { JsonObject } from '../core/item';
import { shardKeyPrefix } from '../core/index-key';
import { decideIndexing } from '../core/member-indexing';
import { orderOf } from '../core/order';
import { entryAttributes, entryFits, entryIn, memberKey } from '../core/reindex';
import type { Condition } from '../store/conditions';
import type { DynamoStore } from '../store/dynamo-store';
import type { AttributeUpdate } from '../store/maintenance';
import { isReservedItem } from '../store/reserved-keys';
import type { ScanGroups } from './scan-groups';
import type { ItemOutcome, PassSpec } from './scan-pass';

export type ItemWriter = Pick<DynamoStore, 'updateAttributes'>;

/**
 * The per-item work of each migration scan. Every update is conditional on what the scan read, so a
 * concurrent application write always wins (it sets everything the running phase needs by itself).
 */
export class ItemPasses {
  /** Write units DynamoDB reported for this run's updates (indexes included). */
  writeUnits = 0;

  constructor(
    private readonly writer: ItemWriter,
    /** The collection from the config. */
    private readonly base: CollectionSpec,
    private readonly groups: ScanGroups,
  ) {}

  /**
   * Gives every member of `source` (and every item the members rule matches) its entry in `target`'s index;
   * in `verify`, also removes `target` entries of items that are no members.
   */
  build(source: RoutedCollection, target: RoutedCollection, pass: 'backfill' | 'verify'): PassSpec {
    const anyOf = [...this.listedIn(source), ...this.listedIn(target), ...this.ruleConditions()];
    return this.spec(pass, anyOf, async (item) => {
      const key = memberKey(source, item, this.isReserved);
      const present = entryIn(target, item);
      if (key.kind === 'not-member') {
        if (pass !== 'verify' || !present) return 'skip';
        return this.remove(target, item, present.shardKey, 'repaired');
      }
      if (key.kind === 'invalid') return 'invalid';
      if (entryFits(target, present, key.indexKey)) return 'ok';
      const when: Condition[] =
        key.kind === 'indexed'
          ? [{ kind: 'equals', attribute: source.map.index.indexKeyAttribute, value: key.indexKey }]
          : [{ kind: 'absent', attribute: source.map.index.shardKeyAttribute }, ...key.held];
      const set = entryAttributes(target, key.indexKey, Math.random);
      return this.update(item, { set, when }, pass === 'verify' ? 'repaired' : 'moved');
    });
  }

  /** Removes `view`'s entries of the collection (the old map's after finalize, the new one's after an abort). */
  cleanup(view: RoutedCollection): PassSpec {
    return this.spec('cleanup', this.listedIn(view), async (item) => {
      const present = entryIn(view, item);
      return present ? this.remove(view, item, present.shardKey, 'moved') : 'skip';
    });
  }

  /** Gives the members rule's items the entry in `listed` (the read map) the followers' decision gives them. */
  adopt(listed: RoutedCollection): PassSpec {
    return this.reindex(listed, 'backfill', this.ruleConditions(), 'moved');
  }

  /**
   * Checks every item listed in `listed`'s index or matched by the members rule against the entry
   * the follower's decision gives it (in a grouped collection: its group's shard key, on a shard
   * the group map gives that group); those that disagree are counted, and with `repair` rewritten.
   */
  check(listed: RoutedCollection, repair: boolean): PassSpec {
    const anyOf = [...this.listedIn(listed), ...this.ruleConditions()];
    return this.reindex(listed, 'verify', anyOf, repair ? 'repaired' : 'stale');
  }

  /** Applies `decideIndexing` to each item; a wrong entry is rewritten and counted as `done`, or left if 'stale'. */
  private reindex(listed: RoutedCollection, pass: PassSpec['pass'], anyOf: Condition[], done: ItemOutcome): PassSpec {
    return this.spec(pass, anyOf, async (item) => {
      const decision = decideIndexing([await this.groups.attach(listed)], item, this.isReserved, Math.random);
      if (decision.kind === 'not-member') return 'skip';
      if (decision.kind === 'invalid') return 'invalid';
      if (decision.kind === 'current') return 'ok';
      if (done === 'stale') return 'stale';
      return this.update(item, { set: decision.set, when: decision.when }, done);
    });
  }

  private spec(pass: PassSpec['pass'], anyOf: Condition[], handle: PassSpec['handle']): PassSpec {
    return { pass, table: this.base.table, anyOf, attributes: this.attributes(), handle };
  }

  private remove(view: RoutedCollection, item: JsonObject, shardKey: string, done: ItemOutcome): Promise<ItemOutcome> {
    const { shardKeyAttribute, indexKeyAttribute } = view.map.index;
    const when: Condition[] = [{ kind: 'equals', attribute: shardKeyAttribute, value: shardKey }];
    return this.update(item, { remove: [shardKeyAttribute, indexKeyAttribute], when }, done);
  }

  private async update(
    item: JsonObject,
    change: Omit<AttributeUpdate, 'table' | 'key'>,
    done: ItemOutcome,
  ): Promise<ItemOutcome> {
    const key = Object.fromEntries(this.base.primaryKey.map(({ name }) => [name, item[name]]));
    const outcome = await this.writer.updateAttributes({ table: this.base.table, key, ...change }, {});
    this.writeUnits += outcome.writeUnits ?? 0;
    return outcome.applied ? done : 'conflict';
  }

  private listedIn(view: RoutedCollection): Condition[] {
    return [{ kind: 'beginsWith', attribute: view.map.index.shardKeyAttribute, prefix: shardKeyPrefix(view.prefix) }];
  }

  private ruleConditions(): Condition[] {
    const rule = this.base.members;
    if (!rule) return [];
    return 'beginsWith' in rule
      ? [{ kind: 'beginsWith', attribute: rule.attribute, prefix: rule.beginsWith }]
      : [{ kind: 'equals', attribute: rule.attribute, value: rule.equals }];
  }

  private attributes(): string[] {
    const names = [
      ...this.base.primaryKey.map(({ name }) => name),
      // Every order field: a compound order's index key is made of them all; the group names the shard key.
      ...orderOf(this.base).map(({ field }) => field),
      ...(this.base.group ? [this.base.group.field] : []),
      ...this.base.indexes.flatMap((index) => [index.shardKeyAttribute, index.indexKeyAttribute]),
    ];
    // Adoption checks the whole item as a write would (size, attribute values), so it reads it all.
    return this.base.members ? [] : [...new Set(names)];
  }

  /** shardline's own items (shard maps) are never members, whatever the rule says. */
  private readonly isReserved = (item: JsonObject): boolean => isReservedItem(this.base, item);
}
