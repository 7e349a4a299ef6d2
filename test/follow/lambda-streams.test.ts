import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildLambdaFolder } from '../../devtools/build-lambda';
import { freePort } from '../../devtools/dynamodb-local';
import { compareKeys } from '../../src/core/collation';
import { loadLambdaRuntime, type LambdaHandler } from '../runtimes/support/runtimes';
import { deleteBehindTheBack, putBehindTheBack, setBehindTheBack } from '../support/behind-the-back';
import { post } from '../support/http';
import { startTestService } from '../support/service';
import { FOLLOW_CONFIG, WITH_STREAM, lambdaStreamEvent, listing, lookup, streamRecords } from './support';

type StreamHandler = (event: unknown, context: unknown) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

/**
 * The built Lambda bundle fed the DynamoDB Streams events Lambda would hand it, built
 * from the records DynamoDB Local's stream really holds: the same indexing as
 * `npm run follow`, and batch item failures only for what failed transiently.
 */
describe('the Lambda bundle on DynamoDB Streams events', () => {
  const endpoint = inject('engines').dynamodbLocal;
  let dir: string;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let bundle: string;
  const context = { functionName: 'shardline', awsRequestId: 'test', getRemainingTimeInMillis: () => 30_000 };
  const load = async (env: Record<string, string>) =>
    (await loadLambdaRuntime(bundle, env)).handler as unknown as StreamHandler & LambdaHandler;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-lambda-streams-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(FOLLOW_CONFIG));
    await buildLambdaFolder(join(dir, 'lambda'), join(dir, 'config.json'));
    bundle = join(dir, 'lambda', 'index.mjs');
    service = await startTestService('dynamodbLocal', { config: FOLLOW_CONFIG, env: WITH_STREAM });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes members, skips poison without failing the batch, and answers HTTP events as before', async () => {
    const albums = Array.from({ length: 6 }, (_, i) => ({ pk: `a${i}`, sk: 'album', title: `Album ${i}` }));
    expect((await post(service.app, '/collections/albums/items/batch', { items: albums })).body.written).toBe(6);
    const tracks = Array.from({ length: 10 }, (_, i) => ({
      pk: `t${i}`,
      sk: `track#${i}`,
      name: `Track ${9 - i}`,
      // Binary travels as base64 in Lambda's JSON: it must not stop the item from being indexed.
      cover: new Uint8Array([i, 255, 0]),
    }));
    await putBehindTheBack(endpoint, service.table, [
      ...tracks,
      { pk: 'x1', sk: 'note#1', name: 'Not a track' },
      { pk: 'p1', sk: 'track#p1', name: 'x'.repeat(1100) },
    ]);
    await setBehindTheBack(endpoint, service.table, [
      { key: { pk: 'a0', sk: 'album' }, attribute: 'title', value: 'Zebra' },
    ]);
    await deleteBehindTheBack(endpoint, service.table, [{ pk: 'a1', sk: 'album' }]);

    const { arn, records } = await streamRecords(endpoint, service.table);
    expect(records.map((r) => r.eventName)).toEqual(expect.arrayContaining(['INSERT', 'MODIFY', 'REMOVE']));
    const env = { DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'us-east-1', TABLE_NAME: service.table };
    const handler = await load(env);
    // Lambda hands a shard's records in batches (here 7); the poison record must not fail its batch.
    for (let start = 0; start < records.length; start += 7) {
      const answer = await handler(lambdaStreamEvent(arn, records.slice(start, start + 7)), context);
      expect(answer).toEqual({ batchItemFailures: [] });
    }

    const expected = tracks.map(({ pk, name }) => ({ pk, name })).sort((a, b) => compareKeys(a.name, b.name));
    expect((await listing(service.app, 'tracks')).map((t) => t.pk)).toEqual(expected.map((t) => t.pk));
    expect(await lookup(service.app, 'albums', 'zebra')).toEqual(['a0']);
    expect((await listing(service.app, 'albums')).map((a) => a.pk)).toEqual(['a2', 'a3', 'a4', 'a5', 'a0']);

    // Its own updates come back through the stream: nothing more to do.
    const own = await streamRecords(endpoint, service.table);
    const again = await handler(lambdaStreamEvent(arn, own.records.slice(records.length)), context);
    expect(again).toEqual({ batchItemFailures: [] });

    // The HTTP path of the same handler.
    const health = await (await loadLambdaRuntime(bundle, env)).invoke('http-v2', { method: 'GET', path: '/healthz' });
    expect(health.status).toBe(200);
  });

  it('reports the records it could not index, while DynamoDB is unreachable, as batch item failures', async () => {
    await putBehindTheBack(endpoint, service.table, [{ pk: 't-late', sk: 'track#late', name: 'Late' }]);
    const { arn, records } = await streamRecords(endpoint, service.table);
    // A removal needs no DynamoDB call; the put does, and fails.
    const removal = records.find((r) => r.eventName === 'REMOVE')!;
    const late = records.at(-1)!;
    expect(late.dynamodb?.Keys?.pk).toEqual({ S: 't-late' });
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const handler = await load({
      DYNAMODB_ENDPOINT: unreachable,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: service.table,
    });
    const event = lambdaStreamEvent(arn, [removal, late]);
    const answer = await handler(event, { ...context, getRemainingTimeInMillis: () => 6000 });
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: late.dynamodb!.SequenceNumber }]);
  });
});
