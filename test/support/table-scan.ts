import type { JsonObject } from '../../src/core/item';
import { createDynamoClients } from '../../src/store/client';
import { DynamoStore } from '../../src/store/dynamo-store';
import { RESERVED_KEY_PREFIX } from '../../src/store/reserved-keys';

/**
 * Every item of a table, read strongly consistent from the engine through the store (not
 * through shardline's API), without shardline's own items (shard maps, load records) unless asked.
 */
export async function scanTable(
  endpoint: string,
  table: string,
  options: { reserved?: boolean } = {},
): Promise<JsonObject[]> {
  const clients = createDynamoClients({
    endpoint,
    credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' },
  });
  const store = new DynamoStore(clients);
  const rows: JsonObject[] = [];
  try {
    let after: Record<string, unknown> | undefined;
    do {
      const page = await store.scanPage(
        { table, segment: 0, segments: 1, limit: 1000, consistent: true, ...(after && { after }) },
        {},
      );
      for (const item of page.items) {
        const isOwn = Object.values(item).some((v) => typeof v === 'string' && v.startsWith(RESERVED_KEY_PREFIX));
        if (!isOwn || options.reserved) rows.push(item);
      }
      after = page.next;
    } while (after);
  } finally {
    clients.raw.destroy();
  }
  return rows;
}
