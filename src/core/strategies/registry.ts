import { z } from 'zod';
import { internalError, invalidRequest, ShardlineError } from '../errors';
import type { ShardStrategy } from './strategy';

/** A strategy's config schema: a zod object whose `kind` is the literal name it registers. */
export type StrategyConfigSchema = z.ZodObject<{ kind: z.ZodLiteral<string> } & z.ZodRawShape>;

/** Declared in the strategy's own file: config validation, the OpenAPI enum and the contract suite read these. */
export interface StrategyDefinition<Schema extends StrategyConfigSchema = StrategyConfigSchema> {
  readonly name: string;
  /** One line for people: what it spreads and what a read costs. */
  readonly description: string;
  /** `kind` must be `z.literal(name)`. */
  readonly configSchema: Schema;
  /** Throws an Error on values the schema cannot judge. */
  create(config: z.output<Schema>): ShardStrategy;
}

export const shardCountSchema = z.number().int().min(1).max(10_000);

const definitions = new Map<string, StrategyDefinition>();

/** Called by each strategy file when imported (`strategies/index.ts` imports the built-in ones). */
export function registerStrategy<Schema extends StrategyConfigSchema>(
  definition: StrategyDefinition<Schema>,
): StrategyDefinition<Schema> {
  const { name, configSchema } = definition;
  if (definitions.has(name)) throw internalError(`strategy "${name}" is already registered`);
  const kind = configSchema.shape.kind;
  if (!(kind instanceof z.ZodLiteral) || kind.values.size !== 1 || !kind.values.has(name)) {
    throw internalError(`strategy "${name}": its config schema's kind must be z.literal(${JSON.stringify(name)})`);
  }
  definitions.set(name, definition as unknown as StrategyDefinition);
  return definition;
}

/** In registration order (the built-ins first), as are the names. */
export function strategyDefinitions(): StrategyDefinition[] {
  return [...definitions.values()];
}

export function strategyNames(): string[] {
  return [...definitions.keys()];
}

/** Sorted, `first` (a default) ahead: usage lines read the same whichever module registered first. */
export function sortedStrategyNames(first?: string): string[] {
  const names = strategyNames().sort();
  return first !== undefined && names.includes(first) ? [first, ...names.filter((name) => name !== first)] : names;
}

/** Names as a sentence lists them: 'hash, random or range'. */
export function inWords(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
}

export function strategyDefinition(name: string): StrategyDefinition | undefined {
  return definitions.get(name);
}

/** From `strategy.config`, a stored shard map or a config file's entry; throws `invalid_request` naming the problem. */
export function strategyFromConfig(json: unknown): ShardStrategy {
  const kind =
    typeof json === 'object' && json !== null && !Array.isArray(json) ? Reflect.get(json, 'kind') : undefined;
  if (typeof kind !== 'string') {
    throw invalidRequest(`strategy config: expected an object with a "kind" (one of ${listNames()})`);
  }
  const definition = definitions.get(kind);
  if (!definition)
    throw invalidRequest(`strategy config: unknown kind ${JSON.stringify(kind)} (one of ${listNames()})`);
  const parsed = definition.configSchema.safeParse(json);
  if (!parsed.success) throw invalidRequest(`strategy "${kind}": invalid config: ${z.prettifyError(parsed.error)}`);
  try {
    return definition.create(parsed.data);
  } catch (error) {
    const message = `strategy "${kind}": ${(error as Error).message}`;
    throw new ShardlineError('invalid_request', message, undefined, { cause: error });
  }
}

function listNames(): string {
  return strategyNames()
    .map((name) => JSON.stringify(name))
    .join(', ');
}
