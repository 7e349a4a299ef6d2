import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reshardCli } from '../../src/cli/reshard-cli';
import { compareKeys } from '../../src/core/collation';
import { listing, runFollow, summaryOf, WITH_STREAM } from '../follow/support';
import { cliEnv } from '../reshard/processes';
import { putBehindTheBack } from '../support/behind-the-back';
import { get, post } from '../support/http';
import { ENGINES, startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';

/**
 * A table keyed by a number alone (`id`, no sort key), as docs/configuration.md allows:
 * the shard maps and the follower's checkpoints live at reserved numbers
 * (src/store/reserved-keys.ts). It starts, lists, reshards and is followed.
 */
const CONFIG = {
  table: { partitionKey: { name: 'id', type: 'N' }, sortKey: null },
  collections: {
    books: {
      field: 'title',
      strategy: { kind: 'range', boundaries: ['', 'm'] },
      members: { attribute: 'kind', equals: 'book' },
    },
  },
};
const BOOKS = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, kind: 'book', title: `Book ${(i * 7) % 40}` }));
const byTitle = (items: { id: number; title: string }[]) =>
  [...items].sort((a, b) => compareKeys(a.title.toLowerCase(), b.title.toLowerCase())).map((item) => item.id);

describe.each(ENGINES)('a table with a numeric partition key on %s', (engine) => {
  const fast = { SHARDLINE_MAP_TTL_MS: '50', REQUEST_TIMEOUT_MS: '3000' };
  let service: Awaited<ReturnType<typeof startTestService>>;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-numeric-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    service = await startTestService(engine, { config: CONFIG, env: { ...fast, ...WITH_STREAM } });
    env = cliEnv(inject('engines')[engine], service.table, join(dir, 'config.json'), fast);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts, writes, lists in order, reads an item by its number, and reshards exactly', async () => {
    const written = await post(service.app, '/collections/books/items/batch', { items: BOOKS });
    expect(written.body).toEqual({ written: 40, failed: [] });
    expect((await listing(service.app, 'books')).map((item) => item.id)).toEqual(byTitle(BOOKS));
    const one = await get(service.app, '/collections/books/item?id=8');
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.item).toMatchObject({ id: 8, title: 'Book 9' });

    const output: string[] = [];
    const write = (text: string) => void output.push(text);
    const args = ['--collection', 'books', '--strategy', 'hash', '--shards', '3', '--yes'];
    const code = await reshardCli(args, { stdout: write, stderr: write, env, progress: false });
    expect(code, output.join('')).toBe(0);
    expect((await get(service.app, '/collections/books')).body).toMatchObject({ shardCount: 3 });
    expect((await listing(service.app, 'books')).map((item) => item.id)).toEqual(byTitle(BOOKS));

    // shardline's own items sit at reserved numbers, far from any id, and are never listed.
    const reserved = (await scanTable(inject('engines')[engine], service.table)).filter(
      (row) => Number(row.id) <= -9.999e125,
    );
    expect(reserved.length).toBeGreaterThanOrEqual(3); // the pointer and versions 1 and 2
  });

  it.runIf(engine === 'dynamodbLocal')('is followed: members written behind its back are indexed', async () => {
    const endpoint = inject('engines').dynamodbLocal;
    const strangers = [
      { id: 1001, kind: 'book', title: 'Aardvark Tales' },
      { id: 1002, kind: 'magazine', title: 'Not a book' },
    ];
    await putBehindTheBack(endpoint, service.table, strangers);
    const run = await runFollow({ ...process.env, ...env }, ['--until-idle']).done;
    expect(run.code, run.stderr).toBe(0);
    expect(summaryOf(run.stdout)).toMatchObject({ poison: 0 });
    const ids = (await listing(service.app, 'books')).map((item) => item.id);
    expect(ids).toEqual(byTitle([...BOOKS, strangers[0]!]));
    // Its checkpoints are reserved items too: a second run resumes after them.
    const again = await runFollow({ ...process.env, ...env }, ['--until-idle']).done;
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout).indexed).toBe(0);
  });
});
