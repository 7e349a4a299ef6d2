import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cutBoundaries } from '../../src/boundaries/cut-boundaries';
import { keyCountsFromMap } from '../../src/boundaries/key-counts';
import { normalize } from '../../src/core/normalize';
import { boundariesCli } from '../../src/cli/boundaries-cli';
import { scanCollectionKeys } from '../../src/service/collection-keys';
import { seedShapedTitles } from '../../devtools/titles';
import { shuffledCopies } from '../../devtools/zipf-keys';
import { writeAll } from '../support/http';
import { ENGINES, startTestService } from '../support/service';
import { maxOverMean, oracleLoads } from '../support/boundary-oracle';

/**
 * `--collection`: items written through the real service onto a real engine, then
 * a parallel Scan of the index reads back exactly what each collection holds.
 */
const generated = seedShapedTitles({ keys: 2_000, seed: 77 });
const titles = Array.from(shuffledCopies(generated), (i) => generated.titles[i]!);

describe.each(ENGINES)('collection scan on %s', (engine) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let dir: string;
  beforeAll(async () => {
    service = await startTestService(engine);
    dir = mkdtempSync(join(tmpdir(), 'shardline-scan-'));
    await writeAll(
      service.app,
      'albums-hash',
      titles.map((title, i) => ({ pk: `album#${i}`, sk: 'album', title })),
    );
    // Another collection on the same index, whose entries the scan must leave out.
    const other = titles.slice(0, 50).map((title, i) => ({ pk: `other#${i}`, sk: 'album', title: `zz ${title}` }));
    await writeAll(service.app, 'albums', other);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts exactly the normalized values the collection holds, and its boundaries balance them', async () => {
    const { read: collection } = await service.maps.snapshot(
      service.collections.find((c) => c.name === 'albums-hash')!,
      {},
    );
    const scan = await scanCollectionKeys(
      (request, context) => service.dynamo.items.scanPage(request, context),
      collection,
      {
        segments: 4,
        concurrency: 2,
      },
    );
    const expected = new Map<string, number>();
    for (const title of titles) {
      const value = normalize(title, 'nfkd-lower');
      expected.set(value, (expected.get(value) ?? 0) + 1);
    }
    expect(scan.entries).toBe(titles.length);
    expect(new Map([...scan.counts].sort())).toEqual(new Map([...expected].sort()));

    const keys = keyCountsFromMap(scan.counts);
    const cut = cutBoundaries(keys, { shards: 5 });
    expect(maxOverMean(oracleLoads(cut.boundaries, keys))).toBeLessThanOrEqual(1.05);
  });

  it('npm run boundaries -- --collection NAME reads it with the server environment', async () => {
    const out = join(dir, 'scanned.json');
    let stderr = '';
    const code = await boundariesCli(['--shards', '5', '--collection', 'albums-hash', '--out', out], {
      stdout: () => {},
      stderr: (t) => (stderr += t),
      progress: false,
      env: { DYNAMODB_ENDPOINT: inject('engines')[engine], TABLE_NAME: service.table },
    });
    expect(code, stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.keyCount).toBe(titles.length);
    expect(file.source).toMatch(/^collection albums-hash/);
    expect(file.balance.maxOverMean).toBeLessThanOrEqual(1.05);

    const unknown = await boundariesCli(['--shards', '5', '--collection', 'nope'], {
      stdout: () => {},
      stderr: (t) => (stderr += t),
      progress: false,
      env: { DYNAMODB_ENDPOINT: inject('engines')[engine], TABLE_NAME: service.table },
    });
    expect(unknown).toBe(1);
    expect(stderr).toMatch(/no collection "nope" in .*it has: albums, albums-hash, albums-random/);
  });
});
