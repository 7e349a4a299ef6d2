import { z } from 'zod';
import type { ShardStrategy, StrategyConfig } from './strategy';

/** A strategy's config schema: a zod object whose `kind` is the literal name it registers. */
export type StrategyConfigSchema = z.ZodObject<{ kind: z.ZodLiteral<string> } & z.ZodRawShape>;

/**
 * Everything shardline knows about one strategy, declared in the strategy's own file
 * (Vitess's vindexes): config validation, the OpenAPI enum and the contract suite
 * all read these rather than a list of kinds.
 */
export interface StrategyDefinition<Schema extends StrategyConfigSchema = StrategyConfigSchema> {
  readonly name: string;
  /** One line for people: what it spreads and what a read costs. */
  readonly description: string;
  /** Validates the strategy's JSON config; `kind` must be `z.literal(name)`. */
  readonly configSchema: Schema;
  /** Builds the strategy from a config the schema accepted; throws an Error on values the schema cannot judge. */
  create(config: z.output<Schema>): ShardStrategy;
}

/** Shard counts any strategy accepts. */
export const shardCountSchema = z.number().int().min(1).max(10_000);

const definitions = new Map<string, StrategyDefinition>();

/**
 * Adds a strategy to the registry and returns its definition. Called once by each
 * strategy file when it is imported (`strategies/index.ts` imports the built-in
 * ones). Throws when the name is taken or the schema's `kind` is not the name.
 */
export function registerStrategy<Schema extends StrategyConfigSchema>(
  definition: StrategyDefinition<Schema>,
): StrategyDefinition<Schema> {
  const { name, configSchema } = definition;
  if (definitions.has(name)) throw new Error(`strategy "${name}" is already registered`);
  const kind = configSchema.shape.kind;
  if (!(kind instanceof z.ZodLiteral) || kind.values.size !== 1 || !kind.values.has(name)) {
    throw new Error(`strategy "${name}": its config schema's kind must be z.literal(${JSON.stringify(name)})`);
  }
  definitions.set(name, definition as unknown as StrategyDefinition);
  return definition;
}

/** Every registered strategy, in registration order (the built-ins first). */
export function strategyDefinitions(): StrategyDefinition[] {
  return [...definitions.values()];
}

/** The registered names, in registration order. */
export function strategyNames(): string[] {
  return [...definitions.keys()];
}

/**
 * The registered names sorted, `first` (a default) ahead of the rest: what usage lines
 * and messages list, so they read the same whichever module registered a strategy first.
 */
export function sortedStrategyNames(first?: string): string[] {
  const names = strategyNames().sort();
  return first !== undefined && names.includes(first) ? [first, ...names.filter((name) => name !== first)] : names;
}

/** Names as a sentence lists them: 'hash, random or range'. */
export function inWords(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
}

/** The definition registered as `name`, or undefined. */
export function strategyDefinition(name: string): StrategyDefinition | undefined {
  return definitions.get(name);
}

/**
 * Rebuilds a strategy from its JSON config (`strategy.config`, a stored shard map,
 * a config file's entry): finds the definition by `kind`, validates with its
 * schema, creates. Throws an Error naming the problem — not an object, unknown
 * kind, a schema violation, or what `create` refuses (e.g. unsorted boundaries).
 */
export function strategyFromConfig(json: unknown): ShardStrategy {
  const kind =
    typeof json === 'object' && json !== null && !Array.isArray(json) ? Reflect.get(json, 'kind') : undefined;
  if (typeof kind !== 'string') {
    throw new Error(`strategy config: expected an object with a "kind" (one of ${listNames()})`);
  }
  const definition = definitions.get(kind);
  if (!definition) throw new Error(`strategy config: unknown kind ${JSON.stringify(kind)} (one of ${listNames()})`);
  const parsed = definition.configSchema.safeParse(json);
  if (!parsed.success) throw new Error(`strategy "${kind}": invalid config: ${z.prettifyError(parsed.error)}`);
  try {
    return definition.create(parsed.data);
  } catch (error) {
    throw new Error(`strategy "${kind}": ${(error as Error).message}`, { cause: error });
  }
}

/** `strategyFromConfig` for a config built in code. */
export function createStrategy(config: StrategyConfig): ShardStrategy {
  return strategyFromConfig(config);
}

function listNames(): string {
  return strategyNames()
    .map((name) => JSON.stringify(name))
    .join(', ');
}
