import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildLambdaFolder } from '../../devtools/build-lambda';
import { compareKeys } from '../../src/core/collation';
import { lambdaStreamEvent, runFollow, streamRecords, summaryOf, WITH_STREAM } from '../follow/support';
import { cliEnv } from '../reshard/processes';
import { loadLambdaRuntime } from '../runtimes/support/runtimes';
import { putBehindTheBack, setBehindTheBack } from '../support/behind-the-back';
import { post } from '../support/http';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { resize, walkGroup } from './support';

/** Orders by customer, newest first; other applications write orders too (sk "order#…"). */
const CONFIG = {
  collections: {
    orders: {
      group: 'customerId',
      order: [{ field: 'orderDate', direction: 'desc' }],
      members: { attribute: 'sk', beginsWith: 'order#' },
    },
  },
};
const FAST = { ...WITH_STREAM, SHARDLINE_MAP_TTL_MS: '50' };

type Service = Awaited<ReturnType<typeof startTestService>>;
type StreamHandler = (event: unknown, context: unknown) => Promise<{ batchItemFailures: unknown[] }>;

const date = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
const order = (pk: string, customerId: string, day: number) => ({
  pk,
  sk: `order#${pk}`,
  customerId,
  orderDate: date(day),
});

/**
 * What other applications put in a grouped collection, indexed by the change followers (`npm run follow`
 * and the Lambda's Streams handler, over DynamoDB Local's real stream) in the shard keys of each item's
 * group, as the group map has that group: a grown group's members spread over its shards, an item whose
 * group changed behind shardline's back moves to its new group, a member without a group is poison.
 */
describe('the change followers on a grouped collection, DynamoDB Local', () => {
  const endpoint = inject('engines').dynamodbLocal;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-group-follow-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * One table's changes made behind shardline's back: group "a" written through shardline, one of its
   * items moved to "b" and others put straight in "a", "b" and the grown "whale"; what each group should list.
   */
  async function changesBehindTheBack(service: Service): Promise<Record<string, string[]>> {
    await resize(service, 'orders', 'whale', 4);
    const through = [0, 1, 2].map((i) => order(`a${i}`, 'a', i));
    expect((await post(service.app, '/collections/orders/items/batch', { items: through })).body.failed).toEqual([]);
    const put = [
      ...[3, 4].map((i) => order(`a${i}`, 'a', i)),
      ...[0, 1].map((i) => order(`b${i}`, 'b', i * 2)),
      ...Array.from({ length: 30 }, (_, i) => order(`w${i}`, 'whale', i)),
    ];
    await putBehindTheBack(endpoint, service.table, [
      ...put,
      { pk: 'nogroup', sk: 'order#nogroup', orderDate: date(1) },
      { pk: 'stranger', sk: 'note#1', customerId: 'a', orderDate: date(1) },
    ]);
    await setBehindTheBack(endpoint, service.table, [
      { key: { pk: 'a1', sk: 'order#a1' }, attribute: 'customerId', value: 'b' },
    ]);
    const all = [...through, ...put].map((item) => (item.pk === 'a1' ? { ...item, customerId: 'b' } : item));
    const expected: Record<string, string[]> = {};
    for (const group of ['a', 'b', 'whale']) {
      expected[group] = all
        .filter((item) => item.customerId === group)
        .sort((x, y) => compareKeys(y.orderDate, x.orderDate) || compareKeys(x.pk, y.pk))
        .map((item) => item.pk);
    }
    return expected;
  }

  /** Every group lists what it should, in order; the whale's entries on its four shards; nothing else indexed. */
  async function expectIndexed(service: Service, expected: Record<string, string[]>): Promise<void> {
    for (const [group, pks] of Object.entries(expected)) {
      const walked = await walkGroup(service, 'orders', group, 'limit=4');
      expect(
        walked.items.map((item) => item.pk),
        group,
      ).toEqual(pks);
    }
    const rows = await scanTable(endpoint, service.table);
    const whale = new Set(rows.filter((row) => row.customerId === 'whale').map((row) => row.gsi1pk));
    expect([...whale].every((key) => /^orders#whale#[0-3]$/.test(String(key)))).toBe(true);
    expect(whale.size).toBeGreaterThan(1);
    expect(rows.find((row) => row.pk === 'a1')?.gsi1pk).toBe('orders#b#0');
    for (const pk of ['nogroup', 'stranger']) {
      const row = rows.find((r) => r.pk === pk)!;
      expect(
        Object.keys(row).filter((name) => name.startsWith('gsi')),
        pk,
      ).toEqual([]);
    }
  }

  it('npm run follow indexes each member in its group, moves a changed group, reports one without', async () => {
    const service = await startTestService('dynamodbLocal', { config: CONFIG, env: FAST });
    const expected = await changesBehindTheBack(service);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...cliEnv(endpoint, service.table, join(dir, 'config.json'), {}),
    };
    delete env.AWS_REGION;
    const run = await runFollow(env, ['--until-idle']).done;
    expect(run.code, run.stderr).toBe(0);
    await expectIndexed(service, expected);
    // Indexed: the moved item and every member put behind shardline's back.
    expect(summaryOf(run.stdout)).toMatchObject({ indexed: 1 + 34, poison: 1 });
    const poison = run.stderr.split('\n').filter((line) => line.includes('shardline.poison_record'));
    expect(poison.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        key: { pk: 'nogroup', sk: 'order#nogroup' },
        reason: expect.stringMatching(/customerId/),
      }),
    ]);
    const again = await runFollow(env, ['--until-idle']).done;
    expect(summaryOf(again.stdout).indexed).toBe(0);
  });

  it("the Lambda bundle's Streams handler does the same from the stream's records", async () => {
    await buildLambdaFolder(join(dir, 'lambda'), join(dir, 'config.json'));
    const service = await startTestService('dynamodbLocal', { config: CONFIG, env: FAST });
    const expected = await changesBehindTheBack(service);
    const { arn, records } = await streamRecords(endpoint, service.table);
    const env = { DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'us-east-1', TABLE_NAME: service.table };
    const handler = (await loadLambdaRuntime(join(dir, 'lambda', 'index.mjs'), env))
      .handler as unknown as StreamHandler;
    const context = { functionName: 'shardline', awsRequestId: 'test', getRemainingTimeInMillis: () => 30_000 };
    for (let start = 0; start < records.length; start += 10) {
      const answer = await handler(lambdaStreamEvent(arn, records.slice(start, start + 10)), context);
      expect(answer).toEqual({ batchItemFailures: [] });
    }
    await expectIndexed(service, expected);
  });
});
