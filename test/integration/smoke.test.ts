import { describe, expect, it } from 'vitest';
import { get, put } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

describe.each(ENGINES)('smoke over %s', (engine) => {
  it('writes an item and lists it back', async () => {
    const { app } = await startTestService(engine);
    const written = await put(app, '/collections/albums/items', {
      pk: 'Solar Fields',
      sk: 'album#Leaving Home',
      title: 'Leaving Home',
    });
    expect(written.status).toBe(201);
    expect(written.body).toMatchObject({ shard: 9, shardKey: 'albums#9' });
    const listing = await get(app, '/collections/albums/items');
    expect(listing.body.items).toEqual([{ pk: 'Solar Fields', sk: 'album#Leaving Home', title: 'Leaving Home' }]);
  });
});
