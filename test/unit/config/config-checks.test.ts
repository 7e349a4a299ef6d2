import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';

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

  /** The lines `resolveConfig` refuses `config` with (none when it takes it). */
  const problems = (config: unknown, source?: string): string[] => {
    try {
      resolveConfig(config, source === undefined ? {} : { source });
    } catch (error) {
      return (error as Error).message.split('\n');
    }
    return [];
  };

  it('refuses an unknown key anywhere, naming the key and where it is', () => {
    const albums = { field: 't', strategy: hash };
    const cases: [unknown, string][] = [
      [{ collections: {}, tabel: {} }, 'unknown key "tabel"'],
      [{ table: { nmae: 'x' }, collections: {} }, 'table: unknown key "nmae"'],
      [{ table: { partitionKey: { name: 'pk', typ: 'S' } }, collections: {} }, 'table.partitionKey: unknown key "typ"'],
      [
        {
          table: { alternateIndex: { name: 'GSI2', shardKeyAttribute: 'a', indexKeyAttribute: 'b', shardKey: 'x' } },
          collections: {},
        },
        'table.alternateIndex: unknown key "shardKey"',
      ],
      [{ collections: { albums: { ...albums, autopliot: {} } } }, 'collections.albums: unknown key "autopliot"'],
      [
        { collections: { albums: { ...albums, strategy: { ...hash, shard: 3 } } } },
        'collections.albums.strategy: unknown key "shard"',
      ],
      [
        { collections: { albums: { field: 't', strategy: { kind: 'range', boundaries: [''], boundaryFile: 'x' } } } },
        'collections.albums.strategy: unknown key "boundaryFile"',
      ],
      [
        { collections: { albums: { ...albums, autopilot: { minGian: 0.3 } } } },
        'collections.albums.autopilot: unknown key "minGian"',
      ],
      [
        { collections: { albums: { ...albums, table: { indx: 'G' } } } },
        'collections.albums.table: unknown key "indx"',
      ],
      [
        { collections: { albums: { order: [{ field: 't', dir: 'desc' }], strategy: hash } } },
        'collections.albums.order.0: unknown key "dir"',
      ],
    ];
    for (const [config, line] of cases)
      expect(problems(config, 'config/shardline.json')).toEqual([`config/shardline.json: ${line}`]);
  });

  it('says each absurd value in one line naming its field, and checks minShards ≤ maxShards', () => {
    const autopilot = (values: object) => ({
      collections: { albums: { field: 't', strategy: hash, autopilot: values } },
    });
    const lines = problems(
      autopilot({ maxPartitionShare: 'half', minGain: 7, windowMinutes: -5, cooldownMinutes: 0.5, rate: 0 }),
    );
    expect(lines.map((line) => line.split(':')[0])).toEqual(
      ['maxPartitionShare', 'minGain', 'windowMinutes', 'cooldownMinutes', 'rate'].map(
        (f) => `collections.albums.autopilot.${f}`,
      ),
    );
    expect(problems(autopilot({ minShards: 10, maxShards: 2 }))).toEqual([
      'collections.albums.autopilot.minShards: must not exceed "maxShards"',
    ]);
    // The first map of a hash collection must lie within what its autopilot may make of it.
    expect(problems(autopilot({ minShards: 3 }))).toEqual([
      'collections.albums.autopilot: the strategy\'s 2 shards are outside "minShards" 3 to "maxShards" 256',
    ]);
    expect(problems(autopilot({ minShards: 2, maxShards: 2 }))).toEqual([]);
  });
});
