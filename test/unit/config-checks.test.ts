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

  it("lists every collection's problem and every prefix clash at once, not only the first", () => {
    const range = (boundaries: string[]) => ({ field: 't', strategy: { kind: 'range', boundaries } });
    const config = {
      collections: {
        a: range(['', 'Abc']),
        b: range(['', 'Xyz']),
        c: { field: 't', strategy: hash },
        d: { field: 't', prefix: 'c', strategy: hash },
      },
    };
    const lines = (() => {
      try {
        resolveConfig(config);
      } catch (error) {
        return (error as Error).message.split('\n');
      }
      return [];
    })();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^collection "a": .*"abc"/);
    expect(lines[1]).toMatch(/^collection "b": .*"xyz"/);
    expect(lines[2]).toMatch(/^collections "c" and "d"/);
  });
});
