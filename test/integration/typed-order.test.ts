import { beforeAll, describe, expect, it } from 'vitest';
import { call, get, post, put } from '../support/http';
import { ENGINES, startTestService } from '../support/service';
import { compareTuples, nfkdLower, within, type Oracle, type OracleField } from '../support/typed-oracle';

const desc = 'desc' as const;
const CONFIG = {
  collections: {
    'scores-range': {
      order: [{ field: 'score', type: 'number', direction: desc }],
      strategy: { kind: 'range', boundaries: [[], [1000], [7], [0], [-5]] },
    },
    'scores-hash': {
      order: [{ field: 'score', type: 'number', direction: desc }],
      strategy: { kind: 'hash', shards: 4 },
    },
    'scores-random': {
      order: [{ field: 'score', type: 'number', direction: desc }],
      strategy: { kind: 'random', shards: 3 },
    },
    events: { order: [{ field: 'at', type: 'date' }], strategy: { kind: 'hash', shards: 3 } },
    discography: {
      order: [{ field: 'artist' }, { field: 'year', type: 'number' }],
      strategy: { kind: 'range', boundaries: [[], ['c'], ['m', 1990], ['t']] },
    },
  },
};

/** Numbers as JSON text: extremes, ties (12.5 = 12.50, seven 7s) and neighbours a double keeps apart. */
const SCORES = [
  '9.99999999999999E+125',
  '-9.99999999999999E+125',
  '1E-130',
  '-1E-130',
  '0',
  '12.5',
  '12.50',
  '-0.25',
  '1000.5',
  '1000.4999999999',
  '-1000.5',
  '-5',
  '0.1',
  '9007199254740992',
  '123456789012345680000',
  ...Array.from({ length: 7 }, () => '7'),
];
/** Neighbours only exact (lossless) JSON parsing keeps apart: checked when the body parser is exact. */
const EXACT_ONLY = [
  '9007199254740993',
  '0.10000000000000000000000000000000000001',
  '9.9999999999999999999999999999999999999E+125',
];

const DATES = [
  '2026-01-01T10:00:00+02:00', // 08:00Z
  '2026-01-01T09:00:00Z',
  '2026-01-01T08:00:00.000000001Z',
  '2026-01-01T03:00:00-05:00', // 08:00Z again: a tie by instant
  '2026-01-01',
  '2025-12-31T23:59:59.999999999-00:30',
  '1969-12-31T23:59:59.5Z',
  '0001-01-01T00:00:00+14:00',
  '9999-12-31T23:59:59Z',
  '2026-01-01T09:30:00+01:00',
];

const ARTISTS = ['ABBA', 'abba', 'The Beatles', 'the beatles', 'Cream', 'Miles Davis', 'Zappa', 'Ｔｈｅ Kinks'];
const YEARS = [1966, 1969, 1975, 1977, 1979, 1990, 1990, 2001.5];

interface CollectionCase {
  readonly collection: string;
  readonly fields: readonly OracleField[];
  readonly filters: readonly { readonly query: string; readonly keep: (values: readonly unknown[]) => boolean }[];
}

const between = (low?: string, high?: string) => (values: readonly unknown[]) => within('number', values[0], low, high);
const during = (low?: string, high?: string) => (values: readonly unknown[]) => within('date', values[0], low, high);

const numberFilters: CollectionCase['filters'] = [
  { query: '', keep: () => true },
  { query: 'from=-5&to=1000.5', keep: between('-5', '1000.5') },
  { query: 'key=7', keep: between('7', '7') },
  { query: 'key=12.500', keep: between('12.5', '12.5') },
  { query: 'from=9007199254740993', keep: between('9007199254740993') },
  {
    query: 'from=0.10000000000000000000000000000000000001&to=1E3',
    keep: between('0.10000000000000000000000000000000000001', '1e3'),
  },
  { query: 'to=-1E-130', keep: between(undefined, '-1e-130') },
];

describe.each(ENGINES)('typed and compound order over %s', (engine) => {
  let app: Awaited<ReturnType<typeof startTestService>>['app'];
  const oracle: Oracle = new Map();

  /** Writes items as raw JSON text (numbers keep every digit the parser keeps). */
  async function write(collection: string, items: string[]): Promise<void> {
    const answer = await post(app, `/collections/${collection}/items/batch`, `{"items":[${items.join(',')}]}`);
    expect(answer.body, collection).toEqual({ written: items.length, failed: [] });
  }

  beforeAll(async () => {
    ({ app } = await startTestService(engine, { config: CONFIG }));
    for (const collection of ['scores-range', 'scores-hash', 'scores-random']) {
      await write(
        collection,
        SCORES.map((score, i) => `{"pk":"${collection}/p${i}","sk":"s","i":${i},"score":${score}}`),
      );
    }
    await write(
      'events',
      DATES.map((at, i) => JSON.stringify({ pk: `e${i}`, sk: 's', i, at })),
    );
    const discography = ARTISTS.flatMap((artist, a) => YEARS.map((year, y) => ({ artist, year, i: a * 100 + y })));
    await write(
      'discography',
      discography.map((item) => JSON.stringify({ pk: `d${item.i}`, sk: 's', ...item })),
    );
    // One table: each collection's items have primary keys of their own.
    for (const collection of ['scores-range', 'scores-hash', 'scores-random']) {
      oracle.set(
        collection,
        SCORES.map((score, i) => ({ i, values: [score], tiebreak: `${collection}/p${i}` })),
      );
    }
    oracle.set(
      'events',
      DATES.map((at, i) => ({ i, values: [at], tiebreak: `e${i}` })),
    );
    oracle.set(
      'discography',
      discography.map((d) => ({ i: d.i, values: [d.artist, d.year], tiebreak: `d${d.i}` })),
    );
  });

  const cases: CollectionCase[] = [
    ...['scores-range', 'scores-hash', 'scores-random'].map((collection) => ({
      collection,
      fields: [{ type: 'number', direction: desc }] as const,
      filters: numberFilters,
    })),
    {
      collection: 'events',
      fields: [{ type: 'date', direction: 'asc' }],
      filters: [
        { query: '', keep: () => true },
        {
          query: `from=${encodeURIComponent('2026-01-01T09:00:00+01:00')}&to=2026-01-01T09:00Z`,
          keep: during('2026-01-01T08:00:00Z', '2026-01-01T09:00:00Z'),
        },
        { query: 'key=2026-01-01T08:00:00Z', keep: during('2026-01-01T08:00:00Z', '2026-01-01T08:00:00Z') },
        { query: 'to=1970-01-01', keep: during(undefined, '1970-01-01T00:00:00Z') },
        {
          query: `from=${encodeURIComponent('2025-12-31T23:59:59.999999999Z')}`,
          keep: during('2025-12-31T23:59:59.999999999Z'),
        },
      ],
    },
    {
      collection: 'discography',
      fields: [
        { type: 'string', direction: 'asc' },
        { type: 'number', direction: 'asc' },
      ],
      filters: [
        { query: '', keep: () => true },
        { query: 'key=abba', keep: (v) => nfkdLower(v[0]) === 'abba' },
        {
          query: 'key=ABBA&from=1975&to=1979',
          keep: (v) => nfkdLower(v[0]) === 'abba' && within('number', v[1], '1975', '1979'),
        },
        {
          query: 'key=the%20beatles&from=1990',
          keep: (v) => nfkdLower(v[0]) === 'the beatles' && within('number', v[1], '1990'),
        },
        { query: 'from=b&to=miles%20davis', keep: (v) => within('string', v[0], 'b', 'miles davis') },
        { query: 'from=B&to=m', keep: (v) => within('string', v[0], 'b', 'm') },
        { query: 'prefix=THE', keep: (v) => nfkdLower(v[0]).startsWith('the') },
      ],
    },
  ];

  for (const { collection, fields, filters } of cases) {
    for (const { query, keep } of filters) {
      it(`${collection} ${query || '(all)'}: pages concatenate to the oracle, both directions`, async () => {
        const rows = oracle.get(collection)!;
        const expected = rows
          .filter((row) => keep(row.values))
          .sort((a, b) => compareTuples(fields, a.values, b.values) || compareTiebreak(a.tiebreak, b.tiebreak))
          .map((row) => row.i);
        expect(expected.length, 'the filter selects something').toBeGreaterThan(0);
        for (const limit of [1, 7, 100]) {
          const ascending = await pageThrough(collection, query, 'asc', limit);
          expect(ascending, `asc limit ${limit}`).toEqual(expected);
          const descending = await pageThrough(collection, query, 'desc', limit);
          expect(descending, `desc limit ${limit}`).toEqual([...expected].reverse());
        }
      });
    }
  }

  async function pageThrough(collection: string, filter: string, order: string, limit: number): Promise<number[]> {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query = [filter, `order=${order}`, `limit=${limit}`, cursor && `cursor=${encodeURIComponent(cursor)}`]
        .filter(Boolean)
        .join('&');
      const answer = await get(app, `/collections/${collection}/items?${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      seen.push(...(answer.body.items as { i: number }[]).map((item) => item.i));
      cursor = answer.body.nextCursor;
      expect(seen.length).toBeLessThan(1000);
    } while (cursor !== null);
    return seen;
  }

  it('refuses bad typed values with a 400 naming the field, and writes nothing', async () => {
    const bad: [string, unknown][] = [
      ['events', { pk: 'x', sk: 's', at: 'soon' }],
      ['events', { pk: 'x', sk: 's', at: '2026-13-45' }],
      ['events', { pk: 'x', sk: 's', at: 1767225600000 }],
      ['scores-hash', { pk: 'x', sk: 's', score: '12' }],
      ['discography', { pk: 'x', sk: 's', artist: 'Cream' }],
    ];
    for (const [collection, item] of bad) {
      const answer = await put(app, `/collections/${collection}/items`, item);
      expect(answer.status, JSON.stringify(item)).toBe(400);
      expect(answer.body.error.message).toMatch(/field "(at|score|year)"/);
      expect((await get(app, `/collections/${collection}/item?pk=x&sk=s`)).status).toBe(404);
    }
    const huge = await call(app, 'PUT', '/collections/scores-hash/items', '{"pk":"x","sk":"s","score":1e126}');
    expect(huge.status).toBe(400);
    for (const query of ['from=soon', 'key=1e126', 'to=2026-13-45', 'key=abba&from=soon']) {
      const collection = query.includes('2026') ? 'events' : query.includes('abba') ? 'discography' : 'scores-hash';
      const answer = await get(app, `/collections/${collection}/items?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.message, query).toMatch(/field "(at|score|year)"/);
    }
  });

  it('routes a typed value to the shard its encoded value bisects to', async () => {
    const answer = await get(app, '/collections/scores-range/route?key=7.0');
    expect(answer.body.shards).toEqual([2]);
    // ("miles davis", 1989) sorts after the boundary ("m", 1990): its artist is longer.
    const tuple = await get(app, `/collections/discography/route?key=${encodeURIComponent('["Miles Davis", 1989]')}`);
    expect(tuple.body.shards).toEqual([2]);
    const earlier = await get(app, `/collections/discography/route?key=${encodeURIComponent('["m", 1989]')}`);
    expect(earlier.body.shards).toEqual([1]);
    // The collection names each field's normalization, and none on a number field.
    const info = (await get(app, '/collections/discography')).body;
    expect(info.normalization).toBeUndefined();
    expect(info.order).toEqual([
      { field: 'artist', type: 'string', direction: 'asc', normalization: 'nfkd-lower' },
      { field: 'year', type: 'number', direction: 'asc' },
    ]);
    // One value of the first field alone: every tuple that starts with it, on both sides of ("m", 1990).
    const leading = await get(app, '/collections/discography/route?key=m');
    expect(leading.status).toBe(200);
    expect(leading.body).toMatchObject({ shards: [1, 2], spread: true });
    expect((await get(app, '/collections/discography/route?key=zappa')).body.shards).toEqual([3]);
    const wrong = await get(app, `/collections/discography/route?key=${encodeURIComponent('["m"]')}`);
    expect(wrong.status).toBe(400);
  });

  it('lists numbers only exact JSON can tell apart in exact order', async (context) => {
    const probe = await call(
      app,
      'PUT',
      '/collections/scores-hash/items',
      '{"pk":"probe","sk":"s","score":9007199254740993}',
    );
    const text = await (await app.request('/collections/scores-hash/item?pk=probe&sk=s')).text();
    await call(app, 'DELETE', '/collections/scores-hash/item?pk=probe&sk=s');
    // Until request bodies keep every digit (issue 13A), a body's number arrives as a double.
    if (probe.status !== 201 || !text.includes('9007199254740993')) return context.skip();
    await write(
      'scores-hash',
      EXACT_ONLY.map((score, i) => `{"pk":"x${i}","sk":"s","i":${100 + i},"score":${score}}`),
    );
    const listed = await pageThrough('scores-hash', 'from=9007199254740992&to=9007199254740993', 'asc', 1);
    expect(listed).toEqual([100, SCORES.indexOf('9007199254740992')]);
    const tenth = await pageThrough('scores-hash', 'from=0.1&to=0.10000000000000000000000000000000000001', 'asc', 7);
    expect(tenth).toEqual([101, SCORES.indexOf('0.1')]);
    const top = await pageThrough('scores-hash', '', 'asc', 100);
    expect(top.slice(0, 2)).toEqual([102, SCORES.indexOf('9.99999999999999E+125')]);
  });
});

function compareTiebreak(a: string, b: string): number {
  // Ties list by primary key: these are ASCII, so code unit order is byte order.
  const x = JSON.stringify([a, 's']);
  const y = JSON.stringify([b, 's']);
  return x < y ? -1 : x > y ? 1 : 0;
}
