// First, as a strategy's file is imported by strategies/index.ts: registered before any module reads the registry.
import { firstMapOf } from '../../../src/core/collection';
import './first-letter.strategy';
import { describe, expect, it } from 'vitest';
import { parseReshardOptions, USAGE } from '../../../src/cli/reshard-options';
import { resolveConfig } from '../../../src/config/config';
import { strategyFromConfig, strategyNames } from '../../../src/core/strategies';
import { capacityPlan } from '../../../src/planning/capacity-plan';
import { strategyContract } from './contract';

strategyContract(
  'first-letter (test only, registered from its own file)',
  () => strategyFromConfig({ kind: 'first-letter', shards: 5 }),
  { invalidConfigs: [{ kind: 'first-letter' }, { kind: 'first-letter', shards: 0 }] },
);

describe('a strategy registered from its own file', () => {
  it('is listed after the built-ins', () => {
    expect(strategyNames()).toEqual(['random', 'hash', 'range', 'first-letter']);
  });

  it('is accepted by config validation', () => {
    const [collection] = resolveConfig({
      collections: { letters: { field: 'title', strategy: { kind: 'first-letter', shards: 3 } } },
    }).map(firstMapOf);
    expect(collection!.map.strategy.config).toEqual({ kind: 'first-letter', shards: 3 });
    expect(collection!.map.strategy.shardsForValue('d')).toEqual([100 % 3]);
  });

  it('is one npm run reshard takes, and the capacity plan prices as a fan-out', () => {
    expect(USAGE).toMatch(/--strategy S +first-letter, hash, random or range \(range:/);
    const reshard = ['--collection', 'letters', '--shards', '4', '--strategy'];
    expect(parseReshardOptions([...reshard, 'first-letter'])).toMatchObject({
      action: { kind: 'reshard', shards: 4, strategy: 'first-letter' },
    });
    expect(() => parseReshardOptions([...reshard, 'ring'])).toThrow(
      '--strategy must be first-letter, hash, random or range, not "ring"',
    );
    const input = { itemBytes: 200, readsPerSecond: 100, itemsPerQuery: 100, writesPerSecond: 100 };
    expect(capacityPlan({ ...input, strategy: 'first-letter' }).reads).toEqual({
      ...capacityPlan({ ...input, strategy: 'hash' }).reads,
      strategy: 'first-letter',
    });
  });
});
