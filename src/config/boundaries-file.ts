import { z } from 'zod';
import { validateBoundaries } from '../core/strategies/range';
import { encodeBoundary, orderOf } from '../core/order';
import { schemaProblems } from './config-problems';
import { normalizationSchema } from './order-config';

/** Written by `npm run boundaries`: all but `boundaries` records what produced it, so a reshard can be reproduced. */
const fileRecord = z.looseObject({
  normalization: normalizationSchema.optional(),
  source: z.string().optional(),
  /** The collection whose live keys the boundaries were cut from (`--collection`). */
  collection: z.string().optional(),
  keyCount: z.number().int().nonnegative().optional(),
  shardCount: z.number().int().positive().optional(),
  createdAt: z.string().optional(),
});

export const boundariesFileSchema = fileRecord.extend({
  /** Strings; for a typed or compound order, tuples of field values (`[]` first: the lowest value). */
  boundaries: z.array(z.union([z.string(), z.array(z.union([z.string(), z.number()]))])).min(1),
});

/** A boundaries file with its boundaries as the ordered values a range strategy bisects. */
export type BoundariesFile = z.infer<typeof fileRecord> & { boundaries: string[] };

const STRINGS = orderOf({ field: 'boundary', normalization: 'none' });

/** `where` names the file in error messages; a typed `order`'s boundaries are tuples, encoded here (none: strings). */
export function parseBoundariesFile(json: unknown, where: string, order = STRINGS): BoundariesFile {
  const parsed = boundariesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${where}: not a boundaries file: ${schemaProblems(parsed.error).join('; ')}`);
  }
  try {
    const boundaries = parsed.data.boundaries.map((boundary, i) => encodeBoundary(order, boundary, i));
    validateBoundaries(boundaries);
    return { ...parsed.data, boundaries };
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
}
