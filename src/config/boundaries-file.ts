import { z } from 'zod';
import { validateBoundaries } from '../core/strategies/range';
import { NORMALIZATIONS } from '../core/normalize';

/**
 * The boundaries file a `range` collection reads (written by `npm run boundaries`).
 * Only `boundaries` is required; the rest records what produced it, so that a
 * reshard can be reviewed and reproduced.
 */
export const boundariesFileSchema = z.looseObject({
  boundaries: z.array(z.string()).min(1),
  normalization: z.enum(NORMALIZATIONS as ['nfkd-lower', 'none']).optional(),
  source: z.string().optional(),
  /** The collection whose live keys the boundaries were cut from (`--collection`). */
  collection: z.string().optional(),
  keyCount: z.number().int().nonnegative().optional(),
  shardCount: z.number().int().positive().optional(),
  createdAt: z.string().optional(),
});

export type BoundariesFile = z.infer<typeof boundariesFileSchema>;

/** Parses and checks a boundaries file; `where` names it in error messages. */
export function parseBoundariesFile(json: unknown, where: string): BoundariesFile {
  const parsed = boundariesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${where}: not a boundaries file: ${z.prettifyError(parsed.error)}`);
  }
  try {
    validateBoundaries(parsed.data.boundaries);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
  return parsed.data;
}
