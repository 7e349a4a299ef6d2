import { z } from '@hono/zod-openapi';
import { GroupMapSummary } from './group-schemas';
import { BoundaryValues } from './schemas';

// What GET /collections/{c}/stats answers: this router's per-shard figures and hot keys.

const ShardFigures = z.object({
  shard: z.number().int(),
  writes: z.number().int(),
  itemsRead: z.number().int(),
  queries: z.number().int(),
  throttles: z.number().int(),
});

const HotKey = z.object({
  key: z.string().openapi({ description: 'a normalized value' }),
  values: z
    .array(z.union([z.string(), z.number()]))
    .optional()
    .openapi({ description: 'typed orders: the key as field values' }),
  count: z.number().int().openapi({ description: 'writes counted for it: an upper bound' }),
  error: z.number().int().openapi({ description: 'how much of count may belong to other values' }),
});

const SpanStats = z
  .object({
    seconds: z.number().openapi({ description: 'how long the span is (since start: the router’s uptime)' }),
    writes: z.number().int(),
    shards: z.array(ShardFigures),
    imbalance: z.number().nullable().openapi({ description: 'largest ÷ mean writes per shard; null before any write' }),
    hotKeys: z.array(HotKey).openapi({ description: 'Space-Saving top-k, most written first' }),
    hotKeyErrorBound: z.number().int().openapi({ description: 'the most a value not listed can have been written' }),
  })
  // Named: since start and the last minute share it, and the document declares it once.
  .openapi('SpanStats');

export const StatsResponse = z
  .object({
    collection: z.string(),
    strategy: z.string(),
    shardCount: z.number().int(),
    mapVersion: z.number().int(),
    boundaries: z
      .array(z.string())
      .optional()
      .openapi({ description: 'range strategy: boundaries[i] is where shard i starts' }),
    boundaryValues: BoundaryValues,
    hotKeyCapacity: z.number().int().openapi({ description: 'k: counters the sketch keeps (HOT_KEYS)' }),
    startedAt: z.string().openapi({ description: 'when this router process started counting' }),
    sinceStart: SpanStats,
    lastMinute: SpanStats,
    groups: GroupMapSummary.optional(),
  })
  .openapi('CollectionStats');
