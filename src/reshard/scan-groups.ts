import type { CollectionSpec, RoutedCollection } from '../core/collection';
import type { GroupMap } from '../core/group-map';
import { withGroupMap } from '../core/group-view';
import type { GroupMapStore, MapStore } from '../store/map-store';

/**
 * A grouped collection's group map for a scan's decisions (adopt, verify, repair), read again once it is
 * `ttlMs` old as routers read theirs: a resize waits several TTLs before it moves anything, so no decision
 * outlives the map it was made by. An ungrouped collection's views pass through untouched.
 */
export class ScanGroups {
  private read: { readonly map: GroupMap; readonly at: number } | undefined;
  private pending: Promise<GroupMap> | undefined;
  /** The last view given out, per view asked about: a page of items shares one object. */
  private readonly attached = new WeakMap<RoutedCollection, { map: GroupMap; view: RoutedCollection }>();

  constructor(
    private readonly store: MapStore & Partial<GroupMapStore>,
    private readonly collection: CollectionSpec,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** `view` (the collection as one shard map sees it) with the group map in force attached. */
  async attach(view: RoutedCollection): Promise<RoutedCollection> {
    if (!this.collection.group) return view;
    const map = await this.current();
    const known = this.attached.get(view);
    if (known?.map === map) return known.view;
    const grouped = withGroupMap(view, map);
    this.attached.set(view, { map, view: grouped });
    return grouped;
  }

  private async current(): Promise<GroupMap> {
    if (this.read && this.now() - this.read.at < this.ttlMs) return this.read.map;
    // One read at a time, however many items of a page ask at once.
    this.pending ??= this.load().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async load(): Promise<GroupMap> {
    const at = this.now();
    const [map] = this.store.readGroupMaps ? await this.store.readGroupMaps([this.collection], {}) : [];
    if (!map) throw new Error(`the group map of "${this.collection.name}" cannot be read from this map store`);
    this.read = { map, at };
    return map;
  }
}
