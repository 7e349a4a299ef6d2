import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../devtools/random';
import { pct, queryValue, segment } from '../fuzz/requests';
import { post } from '../support/http';
import { startTestService } from '../support/service';
import { ties, variedTitles } from '../support/titles';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const COLLECTIONS = ['albums', 'albums-hash', 'albums-random'] as const;
const TITLES = ['', '', ...variedTitles(150, 7), ...ties('Greatest Hits', 60), ...ties('Demo', 5)];
/** Filter values: empty ones (the engines once diverged on them), prefixes of stored titles, edge strings. */
const FILTER_VALUES = ['', 'a', 'A', 'g', 'greatest hits', 'Demo', 'le', 'z', '\uE000', '\u{1F600}', 'Ａ', 'ä', ' '];

/** One listing walk, or one other request, as the differential test sends it. */
const listing = fc.record({
  kind: fc.constant('listing' as const),
  collection: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...COLLECTIONS) }, { weight: 1, arbitrary: segment }),
  filter: fc.oneof(
    fc.constant<[string, string][]>([]),
    fc.tuple(fc.constantFrom('key', 'prefix', 'from', 'to'), fc.constantFrom(...FILTER_VALUES)).map((p) => [p]),
    fc
      .tuple(fc.constantFrom(...FILTER_VALUES), fc.constantFrom(...FILTER_VALUES))
      .map(([from, to]) => [['from', from] as [string, string], ['to', to] as [string, string]]),
    // Bad input: garbage values, two filters, unknown parameters.
    fc
      .array(fc.tuple(fc.constantFrom('key', 'prefix', 'from', 'to', 'limit', 'order', 'limt'), queryValue), {
        minLength: 1,
        maxLength: 2,
      })
      .map((pairs) => pairs.map(([k, v]) => [k, decodeOrKeep(v)] as [string, string])),
  ),
  order: fc.constantFrom(undefined, 'asc', 'desc', 'DESC'),
  limit: fc.oneof(fc.integer({ min: 1, max: 40 }).map(String), fc.constantFrom(undefined, '0', '1001', 'x')),
  pages: fc.integer({ min: 1, max: 6 }),
});
const itemRead = fc.record({
  kind: fc.constant('item' as const),
  collection: fc.constantFrom(...COLLECTIONS, 'nope'),
  index: fc.integer({ min: -2, max: TITLES.length + 2 }),
});
const route = fc.record({
  kind: fc.constant('route' as const),
  collection: fc.constantFrom(...COLLECTIONS),
  key: fc.oneof(fc.constantFrom(...FILTER_VALUES), queryValue.map(decodeOrKeep)),
});
const request = fc.oneof({ weight: 6, arbitrary: listing }, { weight: 2, arbitrary: itemRead }, route);

function decodeOrKeep(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

function query(pairs: readonly (readonly [string, string | undefined])[]): string {
  const given = pairs.filter((pair): pair is [string, string] => pair[1] !== undefined);
  return given.length === 0 ? '' : `?${given.map(([k, v]) => `${k}=${pct(v)}`).join('&')}`;
}

/**
 * JSON with every object's names sorted: DynamoDB Local hands an item's attributes back in an
 * order of its own, and a JSON object's names carry no order; values and array order do.
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Status and body, the request id taken out: it is the one part that must differ. */
async function answer(app: App, path: string): Promise<{ status: number; body: unknown }> {
  const response = await app.request(path);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  const error = (body as { error?: { requestId?: unknown } } | null)?.error;
  if (error) delete error.requestId;
  return { status: response.status, body };
}

/**
 * Engine parity: the same seeded random requests (listings with random filters,
 * directions and page sizes, their cursors followed; item reads; routes; bad input)
 * to one service over DynamoDB Local and one over dynalite, holding the same items
 * placed on the same shards, must get identical statuses and bodies, cursors included.
 */
describe('DynamoDB Local and dynalite answer alike through the API', () => {
  let local: App;
  let dynalite: App;

  beforeAll(async () => {
    // One seed for both: the random strategy places every item on the same shard on both engines.
    ({ app: local } = await startTestService('dynamodbLocal', { random: seededRandom(11) }));
    ({ app: dynalite } = await startTestService('dynalite', { random: seededRandom(11) }));
    for (const collection of COLLECTIONS) {
      const items = TITLES.map((title, i) => ({ pk: `${collection}/${i % 17}`, sk: `r#${i}`, title, i }));
      for (const app of [local, dynalite]) {
        expect((await post(app, `/collections/${collection}/items/batch`, { items })).body).toEqual({
          written: items.length,
          failed: [],
        });
      }
    }
  });

  it('gives identical statuses and bodies to a few hundred seeded random requests', async () => {
    const differences: string[] = [];
    let sent = 0;
    let pagesFollowed = 0;
    const compare = async (path: string) => {
      sent++;
      const [a, b] = await Promise.all([answer(local, path), answer(dynalite, path)]);
      if (canonical(a) !== canonical(b)) {
        differences.push(`${path}\n  DynamoDB Local: ${canonical(a)}\n  dynalite: ${canonical(b)}`.slice(0, 2000));
      }
      return a;
    };

    for (const r of fc.sample(request, { seed: 20_260_513, numRuns: 240 })) {
      if (r.kind === 'item') {
        const i = r.index;
        await compare(
          `/collections/${r.collection}/item${query([
            ['pk', `${r.collection}/${i % 17}`],
            ['sk', `r#${i}`],
          ])}`,
        );
      } else if (r.kind === 'route') {
        await compare(`/collections/${r.collection}/route${query([['key', r.key]])}`);
      } else {
        const base = [...r.filter, ['order', r.order], ['limit', r.limit]] as [string, string | undefined][];
        let cursor: string | undefined;
        for (let page = 0; page < r.pages; page++) {
          const path = `/collections/${pct(r.collection)}/items${query([...base, ['cursor', cursor]])}`;
          const { status, body } = await compare(path);
          cursor = status === 200 ? ((body as { nextCursor: string | null }).nextCursor ?? undefined) : undefined;
          if (cursor === undefined) break;
          pagesFollowed++;
        }
      }
    }
    expect(differences).toEqual([]);
    // The sample must exercise what it claims to: enough requests, cursors followed.
    expect(sent).toBeGreaterThanOrEqual(300);
    expect(pagesFollowed).toBeGreaterThan(50);
  });
});
