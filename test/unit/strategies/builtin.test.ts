import { createStrategy } from '../../../src/core/strategies';
import { strategyContract } from './contract';
import { BOUNDARIES, HEAVY } from './fixtures';

const invalidShardCounts = (kind: string) => [
  { kind },
  { kind, shards: 0 },
  { kind, shards: 2.5 },
  { kind, shards: '7' },
  { kind, shards: 10_001 },
];

strategyContract('random', () => createStrategy({ kind: 'random', shards: 7 }), {
  invalidConfigs: invalidShardCounts('random'),
});
strategyContract('random, one shard', () => createStrategy({ kind: 'random', shards: 1 }));
strategyContract('hash', () => createStrategy({ kind: 'hash', shards: 7 }), {
  invalidConfigs: invalidShardCounts('hash'),
});
strategyContract('range', () => createStrategy({ kind: 'range', boundaries: BOUNDARIES }), {
  values: BOUNDARIES,
  orderedShards: true,
  invalidConfigs: [
    { kind: 'range' },
    { kind: 'range', boundaries: [] },
    { kind: 'range', boundaries: ['a'] },
    { kind: 'range', boundaries: ['', '\u{1F600}', '\uE000'] },
    { kind: 'range', boundaries: ['', 7] },
    { kind: 'range', boundariesFile: 'albums.json' },
  ],
});
strategyContract('range with heavy hitters', () => createStrategy({ kind: 'range', boundaries: HEAVY }), {
  values: HEAVY,
  orderedShards: true,
});
strategyContract('range, one shard', () => createStrategy({ kind: 'range', boundaries: [''] }), {
  orderedShards: true,
});
