import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { LoadStore } from '../../../src/store/load-store';

describe('LoadStore.read', () => {
  it('reads a long window a few minutes at a time, every minute once', async () => {
    const [collection] = resolveConfig({
      collections: { albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } } },
    });
    let inFlight = 0;
    let most = 0;
    let sent = 0;
    const doc = {
      send: async () => {
        sent++;
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return { Items: [] };
      },
    } as unknown as DynamoDBDocumentClient;
    const minutes = Array.from({ length: 1440 }, (_, i) => i * 60_000);
    expect(await new LoadStore(doc, 0).read(collection!, minutes)).toEqual([]);
    expect(sent).toBe(1440);
    expect(most).toBe(16);
  });
});
