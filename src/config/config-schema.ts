import { z } from 'zod';
import { DEFAULT_ETAG_ATTRIBUTE } from '../core/collection';
import { strategyDefinitions, type StrategyConfig, type StrategyConfigSchema } from '../core/strategies';
import { autopilotSchema } from './autopilot-config';
import { boundariesFileSchema } from './boundaries-file';
import { normalizationSchema, orderSchema } from './order-config';

// Checks across fields and files are `resolveConfig`'s (config.ts). Every object is strict: a misspelt key
// ("autopliot") stops the start, naming it, rather than being dropped without a word.

const keyAttribute = z.strictObject({ name: z.string().min(1), type: z.enum(['S', 'N']).default('S') });

const tableSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{3,255}$/, 'a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -)')
    .default('shardline'),
  partitionKey: keyAttribute.default({ name: 'pk', type: 'S' }),
  sortKey: keyAttribute.nullable().default({ name: 'sk', type: 'S' }),
  index: z.string().min(3).default('GSI1'),
  shardKeyAttribute: z.string().min(1).default('gsi1pk'),
  indexKeyAttribute: z.string().min(1).default('gsi1sk'),
  /** Where shardline keeps each item's ETag (written with every write, compared by conditional writes). */
  etagAttribute: z.string().min(1).default(DEFAULT_ETAG_ATTRIBUTE),
  /** The second sparse index: the next shard map is built here while reads use the first (and in turn). */
  alternateIndex: z
    .strictObject({
      name: z.string().min(3),
      shardKeyAttribute: z.string().min(1),
      indexKeyAttribute: z.string().min(1),
    })
    .default({ name: 'GSI2', shardKeyAttribute: 'gsi2pk', indexKeyAttribute: 'gsi2sk' }),
});

/** Built from the registry; a strategy that takes `boundaries` may name a `boundariesFile` instead. */
function strategySchema() {
  const options = strategyDefinitions().map(({ configSchema }) =>
    takesBoundaries(configSchema)
      ? configSchema
          .partial({ boundaries: true })
          .extend({
            // Strings, or tuples for a typed order: checked against the collection's order when resolved.
            boundaries: boundariesFileSchema.shape.boundaries.optional(),
            boundariesFile: z.string().optional(),
          })
          .strict()
      : configSchema.strict(),
  );
  // Which kinds exist is known only at run time: the static type is any strategy's config.
  const union = z.discriminatedUnion('kind', options as [StrategyConfigSchema, ...StrategyConfigSchema[]]);
  return union as unknown as z.ZodType<StrategyConfig, StrategyConfig>;
}

export function takesBoundaries(schema: StrategyConfigSchema): boolean {
  return 'boundaries' in schema.shape;
}

const collectionSchema = () =>
  z
    .strictObject({
      /** The short form of `order`: one string field, ascending. */
      field: z.string().min(1).optional(),
      order: orderSchema.optional(),
      normalization: normalizationSchema.default('nfkd-lower'),
      prefix: z.string().min(1).optional(),
      /** A grouped collection's is each group's default (random, 1 shard, when unset). */
      strategy: strategySchema().optional(),
      /** Grouped (docs/groups.md): an index per value of this field, a string or a number one. */
      group: z
        .union([
          z.string().min(1),
          z.strictObject({ field: z.string().min(1), type: z.enum(['string', 'number']).default('string') }),
        ])
        .optional(),
      table: tableSchema.partial().optional(),
      /** Items of the table that belong here though shardline did not write them (reshard --adopt). */
      members: z
        .union([
          z.strictObject({ attribute: z.string().min(1), beginsWith: z.string().min(1) }),
          z.strictObject({ attribute: z.string().min(1), equals: z.union([z.string(), z.number(), z.boolean()]) }),
        ])
        .optional(),
      /** Opt-in: reshard by the fleet's load (docs/autopilot.md). */
      autopilot: autopilotSchema.optional(),
      /** Entities in parts (docs/configuration.md): part name → its top-level attributes. */
      parts: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
    })
    .refine((spec) => spec.strategy !== undefined || spec.group !== undefined, {
      message: 'give a "strategy" (only a grouped collection has a default: random, one shard a group)',
      path: ['strategy'],
    })
    .refine((spec) => (spec.field === undefined) !== (spec.order === undefined), {
      message: 'give exactly one of "field" (one string field) or "order" (typed or several fields)',
    });

export type ParsedConfig = z.output<ReturnType<typeof configSchema>>;

/** The config file's schema, built from the strategies registered when it is called. */
export const configSchema = () =>
  z.strictObject({
    table: tableSchema.default(tableSchema.parse({})),
    collections: z.record(
      z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (at most 64)'),
      collectionSchema(),
    ),
  });
