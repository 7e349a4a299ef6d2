import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { createStrategy, strategyNames } from '../../../src/core/strategies';
import { strategyContract } from './contract';
import './first-letter.strategy';

strategyContract(
  'first-letter (test only, registered from its own file)',
  () => createStrategy({ kind: 'first-letter', shards: 5 }),
  { invalidConfigs: [{ kind: 'first-letter' }, { kind: 'first-letter', shards: 0 }] },
);

describe('a strategy registered from its own file', () => {
  it('is listed after the built-ins', () => {
    expect(strategyNames()).toEqual(['random', 'hash', 'range', 'first-letter']);
  });

  it('is accepted by config validation', () => {
    const [collection] = resolveConfig({
      collections: { letters: { field: 'title', strategy: { kind: 'first-letter', shards: 3 } } },
    });
    expect(collection!.strategy.config).toEqual({ kind: 'first-letter', shards: 3 });
    expect(collection!.strategy.shardsForValue('d')).toEqual([100 % 3]);
  });
});
