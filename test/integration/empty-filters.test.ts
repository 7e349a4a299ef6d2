import { beforeAll, describe, expect, it } from 'vitest';
import { get, post } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const TITLES = ['', 'a', 'B', '', 'c', 'Ｄ'];

/** Every page of a listing, cursors followed; the titles in the order they came. */
async function titles(app: App, collection: string, filter: string, order: 'asc' | 'desc'): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const query = [filter, `order=${order}`, 'limit=2', cursor && `cursor=${encodeURIComponent(cursor)}`];
    const answer = await get(app, `/collections/${collection}/items?${query.filter(Boolean).join('&')}`);
    expect(answer.status, `${filter}: ${JSON.stringify(answer.body)}`).toBe(200);
    seen.push(...(answer.body.items as { title: string }[]).map((item) => item.title));
    cursor = answer.body.nextCursor;
  } while (cursor !== null);
  return seen;
}

for (const engine of ENGINES) {
  describe(`empty filter values mean what they say on ${engine}`, () => {
    let app: App;
    beforeAll(async () => {
      ({ app } = await startTestService(engine));
      for (const collection of ['albums', 'albums-hash']) {
        const items = TITLES.map((title, i) => ({ pk: `p${i}`, sk: collection, title }));
        expect((await post(app, `/collections/${collection}/items/batch`, { items })).body.failed).toEqual([]);
      }
    });

    for (const collection of ['albums', 'albums-hash']) {
      it(`${collection}: prefix= and from= hold every value; key= and to= the empty one`, async () => {
        const all = await titles(app, collection, '', 'asc');
        expect(all).toEqual(['', '', 'a', 'B', 'c', 'Ｄ']);
        for (const order of ['asc', 'desc'] as const) {
          const expectAll = order === 'asc' ? all : [...all].reverse();
          expect(await titles(app, collection, 'prefix=', order)).toEqual(expectAll);
          expect(await titles(app, collection, 'from=', order)).toEqual(expectAll);
          expect(await titles(app, collection, 'key=', order)).toEqual(['', '']);
          expect(await titles(app, collection, 'to=', order)).toEqual(['', '']);
          expect(await titles(app, collection, 'from=&to=', order)).toEqual(['', '']);
          const upToB = await titles(app, collection, 'from=&to=b', order);
          expect(upToB).toEqual(order === 'asc' ? ['', '', 'a', 'B'] : ['B', 'a', '', '']);
        }
        // Still one filter at most, empty or not.
        expect((await get(app, `/collections/${collection}/items?prefix=&key=`)).status).toBe(400);
        expect((await get(app, `/collections/${collection}/items?from=c&to=`)).status).toBe(400);
      });
    }
  });
}
