import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerStrategy, strategyDefinition, strategyFromConfig } from '../../../src/core/strategies';
import { randomStrategy } from '../../../src/core/strategies/random';

describe('the strategy registry', () => {
  it('refuses a second strategy under a taken name', () => {
    const { configSchema, create } = strategyDefinition('hash')!;
    expect(() => registerStrategy({ name: 'hash', description: 'again', configSchema, create })).toThrow(
      /already registered/,
    );
  });

  it('refuses a config schema whose kind is not the literal name', () => {
    const configSchema = z.object({ kind: z.literal('other'), shards: z.number() });
    expect(() =>
      registerStrategy({ name: 'mismatched', description: '', configSchema, create: () => randomStrategy(1) }),
    ).toThrow(/z\.literal\("mismatched"\)/);
    expect(strategyDefinition('mismatched')).toBeUndefined();
  });

  it('names the registered kinds when a config has an unknown one', () => {
    expect(() => strategyFromConfig({ kind: 'bogus', shards: 3 })).toThrow(
      'strategy config: unknown kind "bogus" (one of "random", "hash", "range")',
    );
  });

  it('says which field of a config is wrong', () => {
    expect(() => strategyFromConfig({ kind: 'hash', shards: 'many' })).toThrow(
      /strategy "hash": invalid config: .*shards/s,
    );
    expect(() => strategyFromConfig({ kind: 'range', boundaries: ['', 'b', 'a'] })).toThrow(
      /strategy "range": boundaries: not in code point order at index 2/,
    );
  });

  it('drops fields the schema does not know, so a rebuilt strategy carries only its own config', () => {
    expect(strategyFromConfig({ kind: 'hash', shards: 4, note: 'x' }).config).toEqual({ kind: 'hash', shards: 4 });
  });
});
