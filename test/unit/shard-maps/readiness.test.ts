import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { ShardlineError } from '../../../src/core/errors';
import type { MapSource } from '../../../src/service/map-source';
import type { RequestContext } from '../../../src/service/metrics/request-tally';
import { Readiness } from '../../../src/service/readiness';
import type { Store } from '../../../src/store/store';

const context = {} as RequestContext;
const collections = resolveConfig({
  collections: { albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } } },
});

/** A table that answers (or not) and maps every collection routes by (or none: all stale), counting calls. */
function parts() {
  const state = { pings: 0, tableAnswers: true, mapsStale: false, now: 0 };
  const store = {
    ping: async () => {
      state.pings++;
      if (!state.tableAnswers) throw new ShardlineError('table_missing', 'table "t" is missing');
    },
  } as unknown as Store;
  const maps: MapSource = {
    snapshot: async () => {
      if (state.mapsStale) throw new ShardlineError('map_stale', 'the shard maps could not be refreshed');
      return {} as never;
    },
  };
  return { state, readiness: new Readiness(store, maps, collections, () => state.now) };
}

describe('readiness (/healthz)', () => {
  it('checks the table at most once a second, however often it is probed', async () => {
    const { state, readiness } = parts();
    for (let i = 0; i < 10; i++) {
      await readiness.check(context);
      state.now += 150;
    }
    // At 0 and at 1050 ms: one table ping each.
    expect(state.pings).toBe(2);
  });

  it('is not ready when every collection’s shard maps are stale: the map_stale every request gets', async () => {
    const { state, readiness } = parts();
    state.mapsStale = true;
    await expect(readiness.check(context)).rejects.toMatchObject({ code: 'map_stale' });
    state.mapsStale = false;
    state.now += 1000;
    await expect(readiness.check(context)).resolves.toBeUndefined();
  });

  it('is not ready while the table does not answer, and says so for the rest of that second', async () => {
    const { state, readiness } = parts();
    state.tableAnswers = false;
    await expect(readiness.check(context)).rejects.toMatchObject({ code: 'table_missing' });
    state.tableAnswers = true;
    state.now += 500;
    await expect(readiness.check(context)).rejects.toMatchObject({ code: 'table_missing' });
    state.now += 500;
    await expect(readiness.check(context)).resolves.toBeUndefined();
  });
});
