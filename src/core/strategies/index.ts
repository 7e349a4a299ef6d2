// Importing the built-in strategies registers them (strategyFromConfig, config validation, the OpenAPI enum).
import './random';
import './hash';
import './range';

export * from './registry';
export type { ShardStrategy, StrategyConfig, StrategyKind, ValueBound, ValueRange } from './strategy';
export { sameStrategy } from './strategy';
