import { beforeAll, describe, expect, it } from 'vitest';
import { get, post, put, type Fetcher } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

/** 21 shards: '' (below b), b, c, … u (u and everything above it, emoji and U+E000 included). */
const BOUNDARIES = ['', ...'bcdefghijklmnopqrstu'];
const CONFIG = { collections: { sparse: { field: 'title', strategy: { kind: 'range', boundaries: BOUNDARIES } } } };

/** Titles for every other shard only (0, 2, … 20), with ties, capitals, marks and characters beyond ASCII. */
const TITLES = [
  ...BOUNDARIES.filter((_, shard) => shard % 2 === 0).flatMap((boundary) => {
    const letter = boundary || 'a';
    return [`${letter}lpha`, `${letter.toUpperCase()}eta`, `${letter} tie`, `${letter} tie`];
  }),
  'Ägypten',
  'zebra',
  '🎸 guitar',
  '\uE000 private',
  'ｕｌｔｒａ', // full-width: NFKD makes it "ultra", shard 20
];

/** Normalized titles in UTF-8 byte order: what every walk must give, whatever the shards. */
function expectedTitles(select: (normalized: string) => boolean): string[] {
  return TITLES.map((title) => title.normalize('NFKD').toLowerCase())
    .filter(select)
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

interface Walk {
  readonly items: { pk: string; title: string }[];
  readonly roundTrips: number[];
}

/** Every page of a listing, following its cursors. */
async function walk(app: Fetcher, path: string): Promise<Walk> {
  const items: Walk['items'] = [];
  const roundTrips: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await get(app, `${path}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    roundTrips.push(Number(page.headers.get('x-round-trips')));
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return { items, roundTrips };
}

const normalized = (items: Walk['items']) => items.map(({ title }) => title.normalize('NFKD').toLowerCase());

describe.each(ENGINES)('range pages over sparse shards on %s read ahead', (engine) => {
  it("lists the README tour's one album in at most 3 round trips, not one per shard", async () => {
    const { app } = await startTestService(engine);
    const album = { pk: 'Solar Fields', sk: 'album#Leaving Home', title: 'Leaving Home', year: 2005 };
    expect((await put(app, '/collections/albums/items', album)).status).toBe(201);
    for (const order of ['asc', 'desc']) {
      // Shard ends are remembered per order: each first page reads shards the service knows nothing of.
      const page = await get(app, `/collections/albums/items?limit=2&order=${order}`);
      expect(page.body.items).toEqual([album]);
      expect(page.body.nextCursor).toBeNull();
      expect(Number(page.headers.get('x-round-trips'))).toBeLessThanOrEqual(3);
      expect(Number(page.headers.get('x-shard-queries'))).toBe(21);
    }
  });

  describe('a 21-shard range collection with every other shard empty', () => {
    let app: Fetcher;
    beforeAll(async () => {
      ({ app } = await startTestService(engine, { config: CONFIG }));
      const items = TITLES.map((title, n) => ({ pk: `p${String(n).padStart(3, '0')}`, sk: 'album', title }));
      const written = await post(app, '/collections/sparse/items/batch', { items });
      expect(written.body.failed).toEqual([]);
    });

    const SCOPES = [
      { query: '', select: () => true },
      { query: '&prefix=c', select: (title: string) => title.startsWith('c') },
      { query: '&from=c&to=p', select: (title: string) => title >= 'c' && title <= 'p' },
    ];

    it.each(SCOPES)(
      'walks exactly in both orders, ≤ 3 round trips a page (scope "$query")',
      async ({ query, select }) => {
        const expected = expectedTitles(select);
        for (const limit of [1, 3, 7]) {
          const up = await walk(app, `/collections/sparse/items?limit=${limit}${query}`);
          const down = await walk(app, `/collections/sparse/items?limit=${limit}&order=desc${query}`);
          expect(normalized(up.items)).toEqual(expected);
          // Descending is ascending reversed, ties included: each item once, in both.
          expect(down.items).toEqual([...up.items].reverse());
          expect(new Set(up.items.map(({ pk }) => pk)).size).toBe(expected.length);
          expect(Math.max(...up.roundTrips, ...down.roundTrips)).toBeLessThanOrEqual(3);
        }
      },
    );
  });
});
