import { randomUUID } from 'node:crypto';
import type { CollectionSpec } from '../core/collection';
import { hasCode, refused, ShardlineError } from '../core/errors';
import type { MapPointer } from '../core/shard-map';
import type { MapStore } from '../store/map-store';

interface KeeperOptions {
  /** How long a lease lasts without a heartbeat. */
  readonly leaseMs: number;
  /** An operator's abort or rollback takes the lease over from a live run. */
  readonly force?: boolean;
  /** Every pointer written. */
  readonly onWrite?: (pointer: MapPointer) => void;
}

/**
 * The one writer of a collection's pointer during a migration, under a lease renewed by heartbeats. Each
 * change is conditional on the revision it last wrote: anyone else's change makes the next one a `conflict`.
 */
export class PointerKeeper {
  readonly owner = randomUUID();
  private queue: Promise<unknown> = Promise.resolve();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  private constructor(
    private readonly mapStore: MapStore,
    private readonly collection: CollectionSpec,
    private pointer: MapPointer,
    private readonly options: KeeperOptions,
  ) {}

  /** Takes the lease on `pointer` with `change` applied; refuses while another run's is live, unless `force`. */
  static async acquire(
    mapStore: MapStore,
    collection: CollectionSpec,
    pointer: MapPointer,
    options: KeeperOptions,
    change: (pointer: MapPointer) => MapPointer = (p) => p,
  ): Promise<PointerKeeper> {
    const now = Date.now();
    const lease = pointer.lease;
    if (lease && lease.until > now && !options.force) {
      throw refused(
        `a reshard of "${collection.name}" is running (phase ${pointer.phase}; its lease runs ` +
          `${Math.ceil((lease.until - now) / 1000)} s more, renewed by its heartbeats). Watch it with --status; ` +
          'to stop it, stop its process (Ctrl-C releases the lease) or --abort / --rollback it',
      );
    }
    let keeper = new PointerKeeper(mapStore, collection, pointer, options);
    // A run being taken over may write its next heartbeat first: read again and retry.
    for (let attempt = 1; ; attempt++) {
      try {
        await keeper.update(change);
        break;
      } catch (error) {
        if (!hasCode(error, 'conflict') || !options.force || attempt >= 10) throw error;
        const [fresh] = await mapStore.readPointers([collection], {});
        if (!fresh) throw error;
        keeper = new PointerKeeper(mapStore, collection, fresh, options);
      }
    }
    // The next real change reports the lost lease; a missed beat alone is not fatal.
    keeper.heartbeat = setInterval(() => keeper.update((current) => current).catch(() => {}), options.leaseMs / 4);
    keeper.heartbeat.unref?.();
    return keeper;
  }

  get current(): MapPointer {
    return this.pointer;
  }

  /** Applies `change` and renews the lease, conditional on nobody else having written. */
  update(change: (pointer: MapPointer) => MapPointer): Promise<MapPointer> {
    return this.write(() => {
      const now = Date.now();
      return { ...change(this.pointer), lease: { owner: this.owner, beat: now, until: now + this.options.leaseMs } };
    }, ' (an abort, a rollback, or a run that took over): this one stops');
  }

  /** Writes `final` without a lease and stops heartbeats. */
  release(final: (pointer: MapPointer) => MapPointer): Promise<MapPointer> {
    this.stop();
    return this.write(() => {
      const { lease: _lease, ...rest } = final(this.pointer);
      return rest;
    }, '');
  }

  /** Writes after the writes queued before it, conditional on the revision this keeper last wrote. */
  private write(next: () => MapPointer, lostWhy: string): Promise<MapPointer> {
    const written = this.queue.then(async () => {
      const pointer: MapPointer = { ...next(), revision: this.pointer.revision + 1 };
      if (!(await this.mapStore.replacePointer(this.collection, this.pointer.revision, pointer, {}))) {
        this.stop();
        throw new ShardlineError(
          'conflict',
          `the shard-map pointer of "${this.collection.name}" was changed by another run${lostWhy}`,
        );
      }
      this.pointer = pointer;
      this.options.onWrite?.(pointer);
      return pointer;
    });
    this.queue = written.catch(() => undefined);
    return written;
  }

  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
