import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reshardCli } from '../../src/cli/reshard-cli';
import { compareKeys } from '../../src/core/collation';
import { openReshard } from '../../src/reshard/run-reshard';
import { putBehindTheBack, setBehindTheBack } from '../support/behind-the-back';
import type { EngineEndpoints } from '../support/global-setup';
import { post } from '../support/http';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { cliEnv } from '../reshard/processes';
import { resize, walkGroup } from './support';

/** Orders by customer; visits by site, which other applications write (two shards a site unless resized). */
const CONFIG = {
  collections: {
    orders: { group: 'customerId', order: [{ field: 'orderDate', direction: 'desc' }] },
    visits: {
      group: 'siteId',
      field: 'page',
      strategy: { kind: 'random', shards: 2 },
      members: { attribute: 'sk', beginsWith: 'visit#' },
    },
  },
};

const date = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);

/**
 * `npm run reshard -- --verify / --repair / --adopt` on grouped collections: every entry judged by its
 * item's group and that group's shards in the group map (a grown group's spread is right, another group's
 * entry is wrong), and a collection-level reshard refused by the CLI and by the orchestrator alike.
 */
export function groupReshardSuite(engine: keyof EngineEndpoints): void {
  describe(`npm run reshard on grouped collections, ${engine}`, () => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    let dir: string;
    let env: Record<string, string>;
    // A short map TTL; a deadline roomy enough for a shared, busy engine (no step here waits it out).
    const fast = { SHARDLINE_MAP_TTL_MS: '50', REQUEST_TIMEOUT_MS: '10000' };
    const endpoint = () => inject('engines')[engine];
    const cli = async (...args: string[]) => {
      let output = '';
      const write = (text: string) => {
        output += text;
      };
      const code = await reshardCli(args, { stdout: write, stderr: write, env, progress: false });
      return { code, output };
    };
    /** pk → shard key of the items of one collection's group attribute. */
    const shardKeys = async (attribute: string, group: string) =>
      new Map(
        (await scanTable(endpoint(), service.table))
          .filter((row) => row[attribute] === group)
          .map((row) => [row.pk as string, row.gsi1pk as string | undefined]),
      );
    const pks = async (collection: string, group: string) =>
      (await walkGroup(service, collection, group, 'limit=100')).items.map((item) => item.pk);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shardline-group-reshard-'));
      writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
      service = await startTestService(engine, { config: CONFIG, env: fast });
      env = cliEnv(endpoint(), service.table, join(dir, 'config.json'), fast);
    });
    afterAll(() => {
      service?.dynamo.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    it('--verify finds a grown group right; --repair moves an item whose group changed behind its back', async () => {
      const order = (pk: string, customerId: string, day: number) => ({
        pk,
        sk: 'order',
        customerId,
        orderDate: date(day),
      });
      const small = ['a', 'b'].flatMap((c) => Array.from({ length: 5 }, (_, i) => order(`${c}${i}`, c, i * 3)));
      expect((await post(service.app, '/collections/orders/items/batch', { items: small })).body.failed).toEqual([]);
      await resize(service, 'orders', 'whale', 4);
      const whale = Array.from({ length: 40 }, (_, i) => order(`w${i}`, 'whale', i));
      expect((await post(service.app, '/collections/orders/items/batch', { items: whale })).body.failed).toEqual([]);
      const spread = await shardKeys('customerId', 'whale');
      // Written over the grown group's four shards, not only the default's one.
      expect(new Set(spread.values()).size).toBeGreaterThan(1);

      const clean = await cli('--collection', 'orders', '--verify');
      expect(clean.code, clean.output).toBe(0);
      expect(clean.output).toContain('orders: 50 members checked; 0 with an index entry their ordered fields');

      await setBehindTheBack(endpoint(), service.table, [
        { key: { pk: 'a1', sk: 'order' }, attribute: 'customerId', value: 'b' },
      ]);
      const found = await cli('--collection', 'orders', '--verify');
      expect(found.output).toContain('50 members checked; 1 with an index entry');
      expect(await pks('orders', 'a')).toContain('a1'); // a check changes nothing
      const repaired = await cli('--collection', 'orders', '--repair');
      expect(repaired.code, repaired.output).toBe(0);
      expect(repaired.output).toContain('1 with an index entry their ordered fields disagree with, 1 rewritten');
      expect(await pks('orders', 'a')).toEqual(['a4', 'a3', 'a2', 'a0']);
      expect(await pks('orders', 'b')).toEqual(['b4', 'b3', 'b2', 'a1', 'b1', 'b0']);
      // The grown group was right: nothing of it moved.
      expect(await shardKeys('customerId', 'whale')).toEqual(spread);
      expect((await cli('--collection', 'orders', '--verify')).output).toContain(' 0 with an index entry');
    });

    it("--adopt puts members on their group's shards as the group map has them", async () => {
      // Sites: one shrunk to a single shard, one grown to four, one on the collection's default two.
      await resize(service, 'visits', 'narrow', 1);
      await resize(service, 'visits', 'wide', 4);
      const visit = (siteId: string, i: number) => ({ pk: `${siteId}-${i}`, sk: `visit#${i}`, siteId, page: `/p${i}` });
      const sites = { narrow: 20, wide: 40, plain: 10 };
      const items = Object.entries(sites).flatMap(([site, count]) =>
        Array.from({ length: count }, (_, i) => visit(site, i)),
      );
      await putBehindTheBack(endpoint(), service.table, [
        ...items,
        { pk: 'no-site', sk: 'visit#x', page: '/x' },
        { pk: 'stranger', sk: 'note#1', siteId: 'plain', page: '/n' },
      ]);
      const adopted = await cli('--collection', 'visits', '--adopt');
      expect(adopted.code, adopted.output).toBe(0);
      expect(adopted.output).toContain('visits: adopt done; 70 items updated');

      const keysOf = async (site: string) => new Set((await shardKeys('siteId', site)).values());
      expect(await keysOf('narrow')).toEqual(new Set(['visits#narrow#0']));
      const wide = await keysOf('wide');
      expect([...wide].every((key) => /^visits#wide#[0-3]$/.test(key!))).toBe(true);
      expect(wide.size).toBeGreaterThan(1);
      const plain = [...(await keysOf('plain'))].filter((key) => key !== undefined);
      expect(plain.every((key) => /^visits#plain#[01]$/.test(key))).toBe(true);
      for (const [site, count] of Object.entries(sites)) {
        const expected = Array.from({ length: count }, (_, i) => ({ pk: `${site}-${i}`, page: `/p${i}` }))
          .sort((a, b) => compareKeys(a.page, b.page))
          .map((item) => item.pk);
        expect(await pks('visits', site), site).toEqual(expected);
      }
      const checked = await cli('--collection', 'visits', '--verify');
      // The member without a site cannot be indexed: counted, never indexed.
      expect(checked.output).toContain('visits: 70 members checked; 0 with an index entry');
    });

    it('refuses a collection-level reshard of a grouped collection, in the CLI and in the orchestrator', async () => {
      const before = (await service.maps.pointers({})).get('orders');
      const refused = await cli('--collection', 'orders', '--shards', '4', '--yes');
      expect(refused.code).toBe(3);
      expect(refused.output).toMatch(/grouped by "customerId".*--group G --shards N/);
      // The autopilot and any other caller reach the same orchestrator.
      const reshard = openReshard(
        {
          dynamo: service.dynamo,
          settings: { mapTtlMs: 50, requestTimeoutMs: 3000, reshardLeaseMs: 1000 },
        },
        service.collections.find((c) => c.name === 'orders')!,
        { segments: 1, log: () => undefined },
      );
      const run = reshard.run({ kind: 'random', shards: 4 });
      await expect(run).rejects.toMatchObject({ code: 'refused' });
      await expect(run).rejects.toThrow(/grouped by "customerId"/);
      expect((await service.maps.pointers({})).get('orders')).toEqual(before);
    });
  });
}
