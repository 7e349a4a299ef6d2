import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config';

const hash = { kind: 'hash', shards: 2 };

describe('config checks', () => {
  it('refuses two collections with one shard-key prefix, naming both', () => {
    const config = {
      collections: { a: { field: 't', strategy: hash }, b: { field: 't', prefix: 'a', strategy: hash } },
    };
    expect(() => resolveConfig(config)).toThrow(/"a" and "b"/);
    const extending = {
      collections: { a: { field: 't', strategy: hash }, b: { field: 't', prefix: 'a#x', strategy: hash } },
    };
    expect(() => resolveConfig(extending)).toThrow(/"a" and "b"/);
    const apart = { collections: { a: { field: 't', strategy: hash }, ab: { field: 't', strategy: hash } } };
    expect(resolveConfig(apart)).toHaveLength(2);
  });

  it('refuses boundaries that are not in the collection normalization', () => {
    const range = (boundaries: string[], normalization = 'nfkd-lower') => ({
      collections: { c: { field: 't', normalization, strategy: { kind: 'range', boundaries } } },
    });
    expect(() => resolveConfig(range(['', 'jouluy\u00f6']))).toThrow(/not in the collection's normalization/);
    expect(() => resolveConfig(range(['', 'Abc']))).toThrow(/"abc"/);
    expect(resolveConfig(range(['', 'jouluyo\u0308']))).toHaveLength(1);
    expect(resolveConfig(range(['', 'Abc'], 'none'))).toHaveLength(1);
  });
});
