import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { chunkSortKey } from '../../src/core/parts';
import { sweepPartsCli } from '../../src/cli/sweep-parts-cli';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { partsConfig, profile } from './parts-support';
import { send } from './support';

describe('npm run sweep-parts', () => {
  it('removes chunks no root names, keeps the named ones and the young ones', async () => {
    const config = partsConfig() as { collections: { albums: { strategy: { boundariesFile: string } } } };
    const albums = config.collections.albums.strategy;
    albums.boundariesFile = resolve(import.meta.dirname, '../../config', albums.boundariesFile);
    const dir = mkdtempSync(join(tmpdir(), 'sweep-parts-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    const { app, dynamo, table, collections } = await startTestService('dynamodbLocal', { config });
    expect((await send(app, 'PUT', '/collections/profiles/items', JSON.stringify(profile('kept', 20)))).status).toBe(
      201,
    );
    // What a writer killed after staging leaves: a chunk of a version no root names, written an hour ago.
    const profiles = collections.find((c) => c.name === 'profiles')!;
    const orphan = { pk: 'kept', sk: chunkSortKey('profile', 'cart', 'lost', 0) };
    const stale = { ...orphan, _partOf: 'profile', _writtenAt: Date.now() - 3_600_000, _chunk: new Uint8Array([1]) };
    const young = { ...stale, sk: chunkSortKey('profile', 'cart', 'inflight', 0), _writtenAt: Date.now() };
    for (const record of [stale, young]) {
      await dynamo.items.putItem(
        table,
        record,
        {},
        {
          keyAttributes: ['pk', 'sk'],
          owner: { attributes: ['gsi1pk'], prefix: 'profiles#' },
          presence: 'may',
          adoptUnowned: true,
        },
      );
    }
    const out: string[] = [];
    const env = {
      ...process.env,
      DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal,
      TABLE_NAME: table,
      SHARDLINE_CONFIG: join(dir, 'config.json'),
      AWS_ACCESS_KEY_ID: 'shardline',
      AWS_SECRET_ACCESS_KEY: 'shardline',
    };
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => out.push(text), env };
    expect(await sweepPartsCli(['--collection', profiles.name], io), out.join('')).toBe(0);
    expect(out.join('')).toMatch(/chunks, 1 removed/);
    const left = (await scanTable(inject('engines').dynamodbLocal, table)).filter((row) => row.pk === 'kept');
    expect(left.map((row) => String(row.sk).split('\u0000')[2] ?? 'root').sort()).toEqual(
      expect.arrayContaining(['root', 'inflight']),
    );
    expect(left.some((row) => String(row.sk).includes('lost'))).toBe(false);
    expect((await send(app, 'GET', '/collections/profiles/item?pk=kept&sk=profile')).plain.item).toEqual(
      profile('kept', 20),
    );
  });
});
