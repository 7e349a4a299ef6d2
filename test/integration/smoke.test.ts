import { describe, expect, it } from 'vitest';
import { ENGINES, startTestService } from '../support/service';

describe.each(ENGINES)('smoke over %s', (engine) => {
  it('writes an item and lists it back', async () => {
    const { app } = await startTestService(engine);
    const put = await app.request('/collections/albums/items', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pk: 'Solar Fields', sk: 'album#Leaving Home', title: 'Leaving Home' }),
    });
    expect(put.status).toBe(201);
    expect(await put.json()).toMatchObject({ shard: 9, shardKey: 'albums#9' });
    const list = await app.request('/collections/albums/items');
    expect((await list.json()).items).toEqual([{ pk: 'Solar Fields', sk: 'album#Leaving Home', title: 'Leaving Home' }]);
  });
});
