import { z } from 'zod';
import { shardCountSchema } from '../core/strategies/registry';
import { GROUP_KEYS, type LoadRecord, perFigure, SAMPLES_PER_RECORD, SAMPLES_PER_SHARD } from './load-record';

/** A Space-Saving sketch no router writes more counters for (the meter keeps 100; room to grow). */
const MAX_SKETCH_CAPACITY = 10_000;
/** The longest minute SHARDLINE_LOAD_MINUTE_MS may make, and then some: an hour. */
const MAX_MINUTE_MS = 3_600_000;

const count = z.number().nonnegative();
const shards = shardCountSchema.maxValue ?? 10_000;
const sketch = z
  .object({
    capacity: z.number().int().min(1).max(MAX_SKETCH_CAPACITY),
    total: count,
    counters: z.array(z.object({ key: z.string(), count, error: count })),
  })
  .refine((summary) => summary.counters.length <= summary.capacity, 'more counters than its capacity');

/** A group sketch as a router writes it: at most GROUP_KEYS groups. */
const groupSketch = sketch.refine((summary) => summary.capacity <= GROUP_KEYS, `more than ${GROUP_KEYS} groups`);

const schema = z
  .object({
    collection: z.string(),
    router: z.string().min(1).max(200),
    minute: z.number().int().nonnegative(),
    minuteMs: z.number().int().min(1).max(MAX_MINUTE_MS),
    mapVersion: z.number().int().min(1),
    shardCount: z.number().int().min(0).max(shards),
    figures: z.object(perFigure(() => z.array(count).max(shards))),
    written: sketch,
    read: sketch,
    writeSamples: z.array(z.array(z.string()).max(SAMPLES_PER_SHARD)).max(shards).optional(),
    // Records of routers that counted no groups (older ones, ungrouped collections) have none.
    groups: z.object({ writes: groupSketch, writeUnits: groupSketch }).optional(),
  })
  .refine(
    (record) => (record.writeSamples ?? []).reduce((sum, values) => sum + values.length, 0) <= SAMPLES_PER_RECORD,
    `more than ${SAMPLES_PER_RECORD} write samples`,
  );

/**
 * The load record stored as `text` if a router could have written it for `expected`'s collection and minute,
 * else what is wrong with it: a forged or damaged record must never become a figure, a 500 or an autopilot crash.
 */
export function checkLoadRecord(
  text: unknown,
  expected: { readonly collection: string; readonly minute: number },
): LoadRecord | string {
  if (typeof text !== 'string') return 'its record attribute is not a string';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'its record is not JSON';
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${issue.path.join('.') || 'the record'}: ${issue.message}`;
  }
  const record: LoadRecord = parsed.data;
  if (record.collection !== expected.collection) return `it names collection "${record.collection}"`;
  if (record.minute !== expected.minute) return `it names minute ${record.minute}, not the one it is stored under`;
  return record;
}
