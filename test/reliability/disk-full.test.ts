import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedEngine, type EmbeddedEngine } from '../../src/runtime/embedded-engine';
import { buildService, prepareTables, type Service } from '../../src/runtime/service';
import { readSettings } from '../../src/runtime/settings';
import { fillDisk } from '../support/disk-faults';
import { get, post, put } from '../support/http';
import { demoBoundaries, demoConfig } from '../support/service';

const album = (title: string) => ({ pk: 'Tangerine Dream', sk: `album#${title}`, title });

/**
 * The embedded engine on a disk that fills up: dynalite threw LevelDB's I/O error out of
 * its request callback and the whole process died. Now writes answer 503
 * storage_unavailable, reads go on, and writes land again once space returns.
 */
describe('the embedded engine on a full disk', () => {
  let dataDir: string;
  let engine: EmbeddedEngine;
  let service: Service;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shardline-disk-'));
    engine = await startEmbeddedEngine(dataDir);
    const settings = readSettings({
      DYNAMODB_ENDPOINT: engine.endpoint,
      CURSOR_SECRET: 'test-secret',
      LOG_LEVEL: process.env.LOG_LEVEL,
    });
    service = buildService(settings, demoConfig(), {
      readBoundaries: demoBoundaries,
      client: { credentials: engine.credentials },
    });
    await prepareTables(service, true, false);
  });
  afterAll(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers writes 503 storage_unavailable, reads go on, and writes land again when space returns', async () => {
    expect((await put(service.app, '/collections/albums/items', album('Phaedra'))).status).toBe(201);

    const disk = fillDisk();
    try {
      const refused = await put(service.app, '/collections/albums/items', album('Rubycon'));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.body.error).toMatchObject({ code: 'storage_unavailable', retryable: true });
      expect(refused.body.error.message).toContain('No space left on device');

      const batch = await post(service.app, '/collections/albums/items/batch', {
        items: [album('Ricochet'), album('Stratosfear')],
      });
      expect(batch.status).toBe(200);
      expect(batch.body.written).toBe(0);
      expect(batch.body.failed.map((f: { error: { code: string } }) => f.error.code)).toEqual([
        'storage_unavailable',
        'storage_unavailable',
      ]);

      const listing = await get(service.app, '/collections/albums/items');
      expect(listing.status).toBe(200);
      expect(listing.body.items.map((item: { title: string }) => item.title)).toEqual(['Phaedra']);
      expect((await get(service.app, '/healthz')).status).toBe(200);
    } finally {
      disk.restore();
    }

    expect((await put(service.app, '/collections/albums/items', album('Rubycon'))).status).toBe(201);
    const listing = await get(service.app, '/collections/albums/items');
    expect(listing.body.items.map((item: { title: string }) => item.title)).toEqual(['Phaedra', 'Rubycon']);
  });
});
