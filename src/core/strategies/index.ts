// The built-in strategies register themselves when imported; importing this module
// is what makes them known to createStrategy, config validation and the OpenAPI enum.
import './random';
import './hash';
import './range';

export * from './registry';
export type { ShardStrategy, StrategyConfig, StrategyKind, ValueBound, ValueRange } from './strategy';
export { sameStrategy } from './strategy';
