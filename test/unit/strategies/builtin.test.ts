import { expect, it } from 'vitest';
import { strategyFromConfig, strategyNames, type StrategyConfig } from '../../../src/core/strategies';
import { type ContractOptions, strategyContract } from './contract';
import { BOUNDARIES, HEAVY } from './fixtures';

const invalidShardCounts = (kind: string) => [
  { kind },
  { kind, shards: 0 },
  { kind, shards: 2.5 },
  { kind, shards: '7' },
  { kind, shards: 10_001 },
];

const CASES: [string, StrategyConfig, ContractOptions?][] = [
  ['random', { kind: 'random', shards: 7 }, { invalidConfigs: invalidShardCounts('random') }],
  ['random, one shard', { kind: 'random', shards: 1 }],
  ['hash', { kind: 'hash', shards: 7 }, { invalidConfigs: invalidShardCounts('hash') }],
  [
    'range',
    { kind: 'range', boundaries: BOUNDARIES },
    {
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
    },
  ],
  ['range with heavy hitters', { kind: 'range', boundaries: HEAVY }, { values: HEAVY, orderedShards: true }],
  ['range, one shard', { kind: 'range', boundaries: [''] }, { orderedShards: true }],
];

for (const [name, config, options] of CASES) strategyContract(name, () => strategyFromConfig(config), options);

it('runs the contract against every registered built-in strategy', () => {
  expect(new Set(CASES.map(([, config]) => config.kind))).toEqual(new Set(strategyNames()));
});
