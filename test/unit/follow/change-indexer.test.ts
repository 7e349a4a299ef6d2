import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { ShardlineError } from '../../../src/core/errors';
import { configMaps } from '../../support/config-maps';
import { ChangeIndexer, type PoisonReport } from '../../../src/service/change-indexer';
import type { AttributeUpdate } from '../../../src/store/maintenance';
import type { TableChange } from '../../../src/store/stream-records';

const collections = resolveConfig({
  table: { name: 'music' },
  collections: {
    tracks: {
      field: 'name',
      strategy: { kind: 'hash', shards: 4 },
      members: { attribute: 'sk', beginsWith: 'track#' },
    },
  },
});

const put = (sequence: number, pk: string, name: unknown): TableChange => ({
  table: 'music',
  kind: 'put',
  key: { pk, sk: `track#${pk}` },
  image: { pk, sk: `track#${pk}`, name },
  sequence: String(sequence).padStart(21, '0'),
});

function indexer(fail: (update: AttributeUpdate) => Error | undefined = () => undefined) {
  const updates: AttributeUpdate[] = [];
  const poison: PoisonReport[] = [];
  const changes = new ChangeIndexer({
    collections,
    maps: configMaps(),
    writer: {
      updateAttributes: async (update) => {
        const error = fail(update);
        if (error) throw error;
        updates.push(update);
        return { applied: true };
      },
    },
    isReserved: () => false,
    onPoison: (report) => poison.push(report),
  });
  return { changes, updates, poison };
}

describe('ChangeIndexer', () => {
  it("applies each item's last change of a batch only, and counts every change", async () => {
    const { changes, updates } = indexer();
    const result = await changes.applyBatch([put(1, 'a', 'First'), put(2, 'b', 'Bee'), put(3, 'a', 'Second')]);
    expect(result).toEqual({ counts: { indexed: 2, current: 0, skipped: 1, poison: 0 }, failed: [] });
    expect(updates.map((u) => [u.key.pk, u.when[0]])).toEqual([
      ['b', { kind: 'equals', attribute: 'name', value: 'Bee' }],
      ['a', { kind: 'equals', attribute: 'name', value: 'Second' }],
    ]);
  });

  it('reports poison by primary key without failing, and fails only what failed transiently, in order', async () => {
    const { changes, poison } = indexer((update) => {
      // DynamoDB refusing the update, as the store hands it on (src/store/dynamo-errors.ts).
      if (update.key.pk === 'refused') return new ShardlineError('invalid_item', 'DynamoDB refused the item: too big');
      if (String(update.key.pk).startsWith('down')) return new Error('DynamoDB did not answer');
      return undefined;
    });
    const result = await changes.applyBatch([
      put(12, 'down2', 'X'),
      put(3, 'long', 'x'.repeat(1100)),
      put(4, 'refused', 'Fine'),
      put(9, 'down1', 'Y'),
      put(5, 'ok', 'Ok'),
    ]);
    expect(result.counts).toEqual({ indexed: 1, current: 0, skipped: 0, poison: 2 });
    expect(result.failed).toEqual(['000000000000000000009', '000000000000000000012']);
    expect(poison.map((p) => [p.key, p.sequence])).toEqual([
      [{ pk: 'long', sk: 'track#long' }, '000000000000000000003'],
      [{ pk: 'refused', sk: 'track#refused' }, '000000000000000000004'],
    ]);
  });

  it('needs nothing for removals and items of other tables', async () => {
    const { changes, updates } = indexer();
    const removal: TableChange = { table: 'music', kind: 'remove', key: { pk: 'a', sk: 'track#a' }, sequence: '1' };
    const elsewhere = { ...put(2, 'b', 'Bee'), table: 'other' };
    const result = await changes.applyBatch([removal, elsewhere]);
    expect(result.counts).toEqual({ indexed: 0, current: 0, skipped: 2, poison: 0 });
    expect(updates).toEqual([]);
  });
});
