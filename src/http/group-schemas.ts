import { z } from '@hono/zod-openapi';

// A grouped collection's schemas: how it is grouped (GET /collections/{c}) and its group map (/stats).

const GroupPhase = z.enum(['stable', 'growing', 'shrinking']);

/** How a grouped collection is grouped, and how many of its groups the group map takes off the default. */
export const Grouping = z
  .object({
    field: z.string().openapi({ description: 'the item attribute whose value is the group' }),
    type: z.enum(['string', 'number']),
    defaultShards: z.number().int().openapi({ description: 'shards of every group the group map does not list' }),
    groupsOffDefault: z
      .number()
      .int()
      .openapi({ description: 'groups the group map lists: resized off the default, or being resized' }),
    revision: z.number().int().openapi({ description: 'the group map revision this router routes by' }),
  })
  .openapi('Grouping', {
    description:
      'A grouped collection: its items are listed by group, under shard keys `<prefix>#<group>#<shard>`; the ' +
      "collection's strategy and shard count are each group's default.",
  });

/** One group off the default, as the group map has it. */
const ListedGroup = z.object({
  group: z.string().openapi({ description: 'the group as its shard keys spell it' }),
  shards: z.number().int().openapi({ description: 'shards listings read' }),
  writeShards: z.number().int().openapi({ description: 'shards new writes go to' }),
  phase: GroupPhase,
  changedAt: z.number().openapi({ description: 'epoch ms of the last change' }),
});

/** A grouped collection's group map for /stats and the heat page: the groups with the most shards first. */
export const GroupMapSummary = Grouping.extend({
  groups: z.array(ListedGroup).openapi({ description: 'groups off the default, most shards first (at most 100)' }),
}).openapi('GroupMapSummary', {
  description:
    "A grouped collection's group map. The per-shard figures beside it count shard i of every group together, " +
    'and the hot keys are ordered values across groups.',
});
