import type { AutopilotConfig, CollectionSpec } from '../core/collection';
import type { GroupSpec } from '../core/group-key';
import { normalize, type Normalization } from '../core/normalize';
import { type CollectionOrder, orderSpec } from '../core/order';
import { partsProblem } from '../core/parts';
import { PROTO } from '../core/values';
import { strategyDefinition, strategyFromConfig, type ShardStrategy, type StrategyConfig } from '../core/strategies';
import { parseBoundariesFile } from './boundaries-file';
import { schemaProblems } from './config-problems';
import { configSchema, type ParsedConfig, takesBoundaries } from './config-schema';
import { resolveOrder } from './order-config';

export interface ResolveOptions {
  /** Overrides the default table name (TABLE_NAME). */
  readonly tableName?: string;
  /** Reads a boundaries file named in the config (a path relative to the config file). */
  readonly readBoundaries?: (file: string) => unknown;
  /** Where the config came from (its file), named at the start of every problem's line. */
  readonly source?: string;
}

/**
 * Throws one Error listing what is wrong, one line a problem naming its file and field: every problem the schema
 * finds; past it, each collection's first problem (later checks build on earlier ones) and every prefix clash.
 */
export function resolveConfig(raw: unknown, options: ResolveOptions = {}): CollectionSpec[] {
  const refuse = (lines: readonly string[]): never => {
    throw new Error(lines.map((line) => (options.source ? `${options.source}: ${line}` : line)).join('\n'));
  };
  // Refused, not dropped: the schema's record skips this name without a word.
  if (Object.hasOwn(Object((raw as { collections?: unknown } | null)?.collections), PROTO)) {
    refuse([`collections: "${PROTO}" cannot name a collection`]);
  }
  const parsed = configSchema().safeParse(raw);
  if (!parsed.success) refuse(schemaProblems(parsed.error));
  const data = parsed.data!;
  const defaults = { ...data.table, ...(options.tableName && { name: options.tableName }) };
  const problems: string[] = [];
  const collections = Object.entries(data.collections).flatMap(([name, spec]): CollectionSpec[] => {
    try {
      return [resolveCollection(name, spec, defaults, options)];
    } catch (error) {
      // One collection's problem does not hide another's: an operator fixes them all in one go.
      problems.push((error as Error).message);
      return [];
    }
  });
  problems.push(...prefixClashes(collections));
  if (problems.length > 0) refuse(problems);
  return collections;
}

function resolveCollection(
  name: string,
  spec: ParsedConfig['collections'][string],
  defaults: ParsedConfig['table'],
  options: ResolveOptions,
): CollectionSpec {
  const table = { ...defaults, ...spec.table };
  checkDistinctIndexes(name, table);
  const order = resolveOrder(spec);
  const group: GroupSpec | undefined =
    typeof spec.group === 'string' ? { field: spec.group, type: 'string' } : spec.group;
  const strategy = collectionStrategy(name, spec.strategy ?? DEFAULT_GROUP_STRATEGY, order, options);
  if (group && strategy.kind !== 'random') {
    throw new Error(
      `collection "${name}": a grouped collection's strategy is each group's default and must be "random" ` +
        '(a group grows by random suffixes, so growing moves no item)',
    );
  }
  if (spec.autopilot) checkAutopilotShards(name, strategy, spec.autopilot);
  const resolved: CollectionSpec = {
    name,
    table: table.name,
    primaryKey: table.sortKey ? [table.partitionKey, table.sortKey] : [table.partitionKey],
    ...orderSpec(order),
    prefix: spec.prefix ?? name,
    initialStrategy: strategy,
    indexes: [
      { name: table.index, shardKeyAttribute: table.shardKeyAttribute, indexKeyAttribute: table.indexKeyAttribute },
      table.alternateIndex,
    ] as const,
    etagAttribute: table.etagAttribute,
    ...(spec.members && { members: spec.members }),
    ...(spec.autopilot && { autopilot: spec.autopilot }),
    ...(group && { group }),
  };
  if (!spec.parts) return resolved;
  // Parts are checked against the rest of the collection: one line naming why it cannot have them.
  const problem = partsProblem(resolved, spec.parts);
  if (problem) throw new Error(`collection "${name}": ${problem}`);
  return { ...resolved, parts: spec.parts };
}

/** Each group starts on one shard: its listing is one Query. */
const DEFAULT_GROUP_STRATEGY = { kind: 'random', shards: 1 } as StrategyConfig;

/** Collections on one table must not share shard keys: `a` and `a#b` would mix (`a#b#3` begins with `a#`). */
function prefixClashes(collections: readonly CollectionSpec[]): string[] {
  const clash = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);
  return collections.flatMap((one, i) =>
    collections
      .slice(i + 1)
      .filter((other) => one.table === other.table && clash(`${one.prefix}#`, `${other.prefix}#`))
      .map(
        (other) =>
          `collections "${one.name}" and "${other.name}" use the shard-key prefixes "${one.prefix}" and ` +
          `"${other.prefix}" on table ${one.table}: their index entries would mix; give each its own "prefix"`,
      ),
  );
}

/** Boundaries are compared with normalized values: one that normalization would change can never be hit. */
function checkNormalized(where: string, boundaries: string[], normalization: Normalization): string[] {
  const bad = boundaries.find((boundary) => normalize(boundary, normalization) !== boundary);
  if (bad !== undefined) {
    throw new Error(
      `${where}: boundary ${JSON.stringify(bad)} is not in the collection's normalization (${normalization}); ` +
        `normalized it is ${JSON.stringify(normalize(bad, normalization))}`,
    );
  }
  return boundaries;
}

/** A `boundariesFile` is read here (relative to the config file) and must agree with the collection's normalization. */
function collectionStrategy(
  collection: string,
  spec: StrategyConfig,
  order: CollectionOrder,
  options: ResolveOptions,
): ShardStrategy {
  const { boundariesFile: _file, ...config } = spec;
  const where = `collection "${collection}"`;
  const resolved = takesBoundaries(strategyDefinition(spec.kind)!.configSchema)
    ? { ...config, boundaries: resolveBoundaries(where, spec, order, options) }
    : config;
  try {
    return strategyFromConfig(resolved);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
  }
}

function resolveBoundaries(
  where: string,
  { kind, boundaries, boundariesFile: file }: StrategyConfig,
  order: CollectionOrder,
  options: ResolveOptions,
): string[] {
  const { normalization } = orderSpec(order);
  if ((boundaries === undefined) === (file === undefined)) {
    throw new Error(`${where}: a ${kind} strategy needs exactly one of "boundaries" or "boundariesFile"`);
  }
  if (boundaries !== undefined) {
    return checkNormalized(where, parseBoundariesFile({ boundaries }, where, order).boundaries, normalization);
  }
  const path = String(file);
  if (!options.readBoundaries) throw new Error(`${where}: cannot read boundaries file ${path} here`);
  const parsed = parseBoundariesFile(options.readBoundaries(path), path, order);
  if (parsed.normalization && parsed.normalization !== normalization) {
    throw new Error(
      `${where}: ${path} was computed with normalization ${parsed.normalization}, the collection uses ${normalization}`,
    );
  }
  return checkNormalized(`${where}: ${path}`, parsed.boundaries, normalization);
}

/** The two indexes a collection's maps take turns in must not share a name or an attribute. */
function checkDistinctIndexes(collection: string, table: ParsedConfig['table']): void {
  const { alternateIndex: alternate } = table;
  const attributes = [
    table.shardKeyAttribute,
    table.indexKeyAttribute,
    alternate.shardKeyAttribute,
    alternate.indexKeyAttribute,
  ];
  if (table.index === alternate.name || new Set(attributes).size !== attributes.length) {
    throw new Error(
      `collection "${collection}": "index" and "alternateIndex" must be two indexes with four distinct attributes`,
    );
  }
}

/** The autopilot keeps hash and random maps within [minShards, maxShards]: a first map must start there too. */
function checkAutopilotShards(collection: string, strategy: ShardStrategy, autopilot: AutopilotConfig): void {
  const { minShards, maxShards } = autopilot;
  if (strategy.kind !== 'range' && (strategy.shardCount < minShards || strategy.shardCount > maxShards)) {
    throw new Error(
      `collections.${collection}.autopilot: the strategy's ${strategy.shardCount} shards are outside ` +
        `"minShards" ${minShards} to "maxShards" ${maxShards}`,
    );
  }
}
