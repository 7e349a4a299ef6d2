import { z } from 'zod';

/** A collection's `"autopilot"` in the config (DESIGN §12): every field optional, these defaults. */
export const autopilotSchema = z.strictObject({
  /** A shard over this share of a partition's limits for a whole window gets relief. */
  maxPartitionShare: z.number().gt(0).max(1).default(0.5),
  /** Reshard only for at least this cut of the largest shard's load (predicted). */
  minGain: z.number().gt(0).lt(1).default(0.25),
  windowMinutes: z.number().int().min(1).max(1440).default(10),
  cooldownMinutes: z.number().int().min(0).max(10_080).default(60),
  minShards: z.number().int().min(1).max(10_000).default(1),
  maxShards: z.number().int().min(1).max(10_000).default(256),
  /** Items per second the reshard it starts copies (its --rate). */
  rate: z.number().int().min(1).max(1_000_000).default(500),
});

export type AutopilotConfig = z.infer<typeof autopilotSchema>;

export const DEFAULT_AUTOPILOT: AutopilotConfig = autopilotSchema.parse({});
