import { z } from 'zod';
import type { AutopilotConfig } from '../core/collection';

/** A collection's `"autopilot"` (docs/autopilot.md); each field's meaning is on `AutopilotConfig`. */
export const autopilotSchema = z
  .strictObject({
    maxPartitionShare: z.number().gt(0).max(1).default(0.5),
    minGain: z.number().gt(0).lt(1).default(0.25),
    windowMinutes: z.number().int().min(1).max(1440).default(10),
    cooldownMinutes: z.number().int().min(0).max(10_080).default(60),
    minShards: z.number().int().min(1).max(10_000).default(1),
    maxShards: z.number().int().min(1).max(10_000).default(256),
    rate: z.number().int().min(1).max(1_000_000).default(500),
  })
  .refine((config) => config.minShards <= config.maxShards, {
    message: 'must not exceed "maxShards"',
    path: ['minShards'],
  }) satisfies z.ZodType<AutopilotConfig>;

export const DEFAULT_AUTOPILOT: AutopilotConfig = autopilotSchema.parse({});
