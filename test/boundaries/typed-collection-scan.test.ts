import { firstMapOf } from '../../src/core/collection';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { boundariesCli } from '../../src/cli/boundaries-cli';
import { resolveConfig } from '../../src/config/config';
import { prepareItem } from '../../src/core/item';
import { seededRandom } from '../../devtools/random';
import { randomTitle } from '../../devtools/titles';
import { writeAll } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

/**
 * `npm run boundaries -- --collection` on a typed collection (the demo's
 * `albums-by-year`: year desc, then title) writes its boundaries as tuples that a
 * config reads back, and they cut the live items as evenly as the string cuts would.
 */
const random = seededRandom(5);
const ITEMS = Array.from({ length: 1200 }, (_, i) => ({
  pk: `by-year#${i}`,
  sk: 'album',
  title: randomTitle(random),
  // Few distinct years, so cuts fall inside a year and need the title field.
  year: 1990 + Math.floor(random() * 4),
}));

describe.each(ENGINES)('boundaries of a typed collection on %s', (engine) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let dir: string;
  beforeAll(async () => {
    service = await startTestService(engine);
    dir = mkdtempSync(join(tmpdir(), 'shardline-typed-scan-'));
    await writeAll(service.app, 'albums-by-year', ITEMS);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes tuples a config reads back, balancing the items', async () => {
    const out = join(dir, 'by-year.json');
    const chart = join(dir, 'by-year.svg');
    let stderr = '';
    const args = ['--shards', '6', '--collection', 'albums-by-year', '--out', out, '--chart', chart];
    const code = await boundariesCli(args, {
      stdout: () => {},
      stderr: (t) => (stderr += t),
      progress: false,
      env: { DYNAMODB_ENDPOINT: inject('engines')[engine], TABLE_NAME: service.table },
    });
    expect(code, stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as { boundaries: unknown[]; keyCount: number };
    expect(file.keyCount).toBe(ITEMS.length);
    // A number field has no normalization: the file names none, the report names the order's fields.
    expect(file).not.toHaveProperty('normalization');
    expect(stderr).toContain('order year number desc, title nfkd-lower)');
    expect(stderr).not.toContain('normalization none');
    // The report's rows and the chart's labels show the tuples, not their encoded strings.
    const second = JSON.stringify(file.boundaries[1]);
    expect(stderr).toContain(second.slice(0, 23));
    expect(readFileSync(chart, 'utf8')).toContain(`from ${second.replaceAll('"', '&#34;')}`);
    expect(file.boundaries[0]).toEqual([]);
    for (const boundary of file.boundaries.slice(1)) {
      expect(boundary).toEqual([expect.any(Number), expect.any(String)].slice(0, (boundary as unknown[]).length));
      expect((boundary as number[])[0]).toBeGreaterThanOrEqual(1990);
    }

    const [collection] = resolveConfig(
      {
        collections: {
          'albums-by-year': {
            order: [{ field: 'year', type: 'number', direction: 'desc' }, { field: 'title' }],
            strategy: { kind: 'range', boundariesFile: 'by-year.json' },
          },
        },
      },
      { readBoundaries: (path) => JSON.parse(readFileSync(join(dir, path), 'utf8')) },
    ).map(firstMapOf);
    const loads = new Array<number>(6).fill(0);
    for (const item of ITEMS) loads[prepareItem(collection!, item, () => 0).shard]! += 1;
    // Routing by the tuples read back reproduces the balance the cut was made for.
    expect(Math.max(...loads) / (ITEMS.length / 6)).toBeLessThanOrEqual(1.05);
    // Newest first: the first shard holds the latest year.
    const first = ITEMS.filter((item) => prepareItem(collection!, item, () => 0).shard === 0);
    expect(first.every((item) => item.year === 1993)).toBe(true);
  });
});
