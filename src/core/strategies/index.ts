import { hashStrategy } from './hash';
import { randomStrategy } from './random';
import { rangeStrategy } from './range';
import type { ShardStrategy } from './strategy';

export type StrategyConfig =
  | { readonly kind: 'random'; readonly shards: number }
  | { readonly kind: 'hash'; readonly shards: number }
  | { readonly kind: 'range'; readonly boundaries: readonly string[] };

/** The registry: a strategy by its configured kind. */
export function createStrategy(config: StrategyConfig): ShardStrategy {
  switch (config.kind) {
    case 'random':
      return randomStrategy(config.shards);
    case 'hash':
      return hashStrategy(config.shards);
    case 'range':
      return rangeStrategy(config.boundaries);
  }
}

export type { ShardStrategy, StrategyKind, ValueBound, ValueRange } from './strategy';
