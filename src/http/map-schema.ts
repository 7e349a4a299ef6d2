import { z } from '@hono/zod-openapi';
import { PHASES } from '../core/shard-map';

/** A collection's shard map as clients see it (DESIGN §9). */
export const MapInfo = z
  .object({
    version: z.number().int().openapi({ description: 'the map version listings read' }),
    phase: z.enum(PHASES as [string, ...string[]]).openapi({ description: '"stable", or where a reshard is' }),
    readIndex: z.string().openapi({ description: 'the index listings read' }),
    writeVersions: z.array(z.number().int()).openapi({ description: 'the map versions every write sets' }),
    target: z
      .object({ version: z.number().int(), index: z.string(), strategy: z.string(), shardCount: z.number().int() })
      .optional()
      .openapi({ description: 'during a reshard: the map being built' }),
    progress: z
      .object({
        pass: z.string(),
        scanned: z.number().int(),
        members: z.number().int(),
        moved: z.number().int(),
        segmentsDone: z.number().int(),
        segments: z.number().int(),
      })
      .partial()
      .passthrough()
      .optional()
      .openapi({ description: "during a reshard: the current scan's counts" }),
  })
  .openapi('ShardMap');
