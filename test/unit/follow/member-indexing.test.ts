import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { type CollectionSpec, firstMapOf, routedBy } from '../../../src/core/collection';
import { decideIndexing, type IndexingDecision } from '../../../src/core/member-indexing';
import { indexSortKey } from '../../../src/core/index-key';
import { prepareItem, readPrimaryKey, type JsonObject } from '../../../src/core/item';
import { orderedValueOf } from '../../../src/core/order';
import { strategyFromConfig } from '../../../src/core/strategies';

/** The index sort key an item's current field value gives. */
function fieldIndexKey(collection: CollectionSpec, item: JsonObject): string {
  return indexSortKey(orderedValueOf(collection, item), readPrimaryKey(collection, item));
}

const [albums, tracks, discography] = resolveConfig({
  collections: {
    albums: { field: 'title', strategy: { kind: 'range', boundaries: ['', 'm'] } },
    tracks: {
      field: 'name',
      strategy: { kind: 'hash', shards: 4 },
      members: { attribute: 'sk', beginsWith: 'track#' },
    },
    discography: {
      order: [{ field: 'artist' }, { field: 'year', type: 'number' }],
      strategy: { kind: 'hash', shards: 4 },
      members: { attribute: 'sk', beginsWith: 'release#' },
    },
  },
}).map(firstMapOf);
const reserved = (item: JsonObject) => String(item.pk).startsWith('__shardline#');
const decide = (writes: Parameters<typeof decideIndexing>[0], item: JsonObject) =>
  decideIndexing(writes, item, reserved, () => 0);
/** The item as it is once the decision's update landed. */
const applied = (item: JsonObject, decision: IndexingDecision): JsonObject =>
  decision.kind === 'update' ? { ...item, ...decision.set } : item;

describe('decideIndexing (adoption and the change followers)', () => {
  it('indexes a member the rule matches, conditional on its field and on the entry being absent', () => {
    const item = { pk: 't1', sk: 'track#1', name: 'Blue Train' };
    const decision = decide([tracks!], item);
    expect(decision).toEqual({
      kind: 'update',
      set: { gsi1pk: expect.stringMatching(/^tracks#[0-3]$/), gsi1sk: fieldIndexKey(tracks!, item) },
      when: [
        { kind: 'equals', attribute: 'name', value: 'Blue Train' },
        { kind: 'absent', attribute: 'gsi1pk' },
        { kind: 'absent', attribute: 'gsi1sk' },
      ],
    });
    // Its own change, seen again: nothing to do (no loop).
    expect(decide([tracks!], applied(item, decision))).toEqual({ kind: 'current' });
  });

  it('re-keys an item shardline wrote whose ordered field another writer changed, conditional on what it read', () => {
    const indexed = prepareItem(albums!, { pk: 'a1', sk: 'album', title: 'Abbey Road' }, () => 0).record;
    expect(indexed.gsi1pk).toBe('albums#0');
    const renamed = { ...indexed, title: 'Revolver' };
    const decision = decide([albums!], renamed);
    expect(decision).toEqual({
      kind: 'update',
      set: { gsi1pk: 'albums#1', gsi1sk: fieldIndexKey(albums!, renamed) },
      when: [
        { kind: 'equals', attribute: 'title', value: 'Revolver' },
        { kind: 'equals', attribute: 'gsi1pk', value: 'albums#0' },
        { kind: 'equals', attribute: 'gsi1sk', value: indexed.gsi1sk },
      ],
    });
    expect(decide([albums!], applied(renamed, decision))).toEqual({ kind: 'current' });
  });

  it('holds every order field of a compound order, so a racing change of the second one cannot go stale', () => {
    const item = prepareItem(
      discography!,
      { pk: 'd1', sk: 'release#1', artist: 'Miles Davis', year: 1959 },
      () => 0,
    ).record;
    const redated = { ...item, year: 1960 };
    const decision = decide([discography!], redated);
    expect(decision.kind).toBe('update');
    expect(decision.kind === 'update' && decision.when.slice(0, 2)).toEqual([
      { kind: 'equals', attribute: 'artist', value: 'Miles Davis' },
      { kind: 'equals', attribute: 'year', value: 1960 },
    ]);
  });

  it('moves an entry on a shard the current map would not pick', () => {
    const item = { pk: 'a2', sk: 'album', title: 'Zenyatta', gsi1pk: 'albums#0' };
    const stale = { ...item, gsi1sk: fieldIndexKey(albums!, item) };
    const decision = decide([albums!], stale);
    expect(decision).toMatchObject({ kind: 'update', set: { gsi1pk: 'albums#1' } });
  });

  it('during an online reshard keeps both maps’ entries, each in its own index', () => {
    const next = routedBy(albums!, 2, strategyFromConfig({ kind: 'hash', shards: 3 }), 1);
    // An item shardline wrote, whose title another writer then changed.
    const written = prepareItem(albums!, { pk: 'a3', sk: 'album', title: 'Abbey Road' }, () => 0).record;
    const item = { ...written, title: 'Kind of Blue' };
    const decision = decide([albums!, next], item);
    const key = fieldIndexKey(albums!, item);
    expect(decision).toMatchObject({
      kind: 'update',
      set: { gsi1pk: 'albums#0', gsi1sk: key, gsi2pk: expect.stringMatching(/^albums#[0-2]$/), gsi2sk: key },
    });
    const both = applied(item, decision);
    expect(decide([albums!, next], both)).toEqual({ kind: 'current' });
    // Only the new map's entry missing (written before the reshard began): only that one is set.
    const old = prepareItem(albums!, { pk: 'a4', sk: 'album', title: 'Blue' }, () => 0).record;
    const missing = decide([albums!, next], old);
    expect(missing.kind === 'update' && Object.keys(missing.set).sort()).toEqual(['gsi2pk', 'gsi2sk']);
  });

  it('never touches items of no collection, of another collection, or shardline’s own', () => {
    expect(decide([albums!], { pk: 'x', sk: 'album', title: 'No entry, no rule' })).toEqual({ kind: 'not-member' });
    expect(decide([tracks!], { pk: 'x', sk: 'note#1', name: 'Not a track' })).toEqual({ kind: 'not-member' });
    const otherCollection = { pk: 'y', sk: 'track#y', name: 'Y', gsi1pk: 'albums#0', gsi1sk: 'y' };
    expect(decide([tracks!], otherCollection)).toEqual({ kind: 'not-member' });
    expect(decide([tracks!], { pk: '__shardline#map#tracks', sk: 'track#', name: 'n' })).toEqual({
      kind: 'not-member',
    });
    // Even one forged to carry this collection's index entry: the follower never indexes or moves it.
    const forged = {
      ...prepareItem(albums!, { pk: 'f', sk: 'album', title: 'F' }, () => 0).record,
      pk: '__shardline#x',
    };
    expect(decide([albums!], { ...forged, title: 'Moved' })).toEqual({ kind: 'not-member' });
  });

  it('calls a member it cannot index invalid, with the reason a write would get', () => {
    for (const name of ['x'.repeat(1100), 'nul \u0000 inside', 42]) {
      const decision = decide([tracks!], { pk: 'p', sk: 'track#p', name });
      expect(decision.kind).toBe('invalid');
    }
    expect(decide([tracks!], { pk: 'p', sk: 'track#p', name: 'x'.repeat(1100) })).toMatchObject({
      reason: expect.stringMatching(/too long to index/),
    });
  });
});
