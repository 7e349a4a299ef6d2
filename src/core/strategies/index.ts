// The built-in strategies register themselves when imported; importing this module
// is what makes them known to createStrategy, config validation and the OpenAPI enum.
import './random';
import './hash';
import './range';

export {
  createStrategy,
  inWords,
  registerStrategy,
  shardCountSchema,
  sortedStrategyNames,
  strategyDefinition,
  strategyDefinitions,
  strategyFromConfig,
  strategyNames,
  type StrategyConfigSchema,
} from './registry';
export type { ShardStrategy, StrategyConfig, StrategyKind, ValueBound, ValueRange } from './strategy';
