import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createBundledService } from '../../src/runtime/bundled-service';
import { bundledBoundaries, type ConfigBundle } from '../../src/runtime/config-bundle';
import { bundleConfig } from '../../devtools/build-config';
import { get } from '../support/http';
import { startTestService } from '../support/service';
import { ROOT } from './support/runtimes';

const bundle = bundleConfig(resolve(ROOT, 'config/shardline.config.json'));
const noAssets = async () => undefined;
const SECRET = { CURSOR_SECRET: 'bundled-service-test-secret-32-bytes!' };

/** What the Worker and the Lambda entry share: settings from an env map, config from the bundle, the table gate. */
describe('the bundled service (Worker and Lambda core)', () => {
  it('bundles the config with the boundaries file it names, as the Node server reads them', () => {
    const albums = JSON.parse(readFileSync(resolve(ROOT, 'boundaries/albums.json'), 'utf8'));
    expect(bundle.config).toEqual(JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8')));
    expect(bundledBoundaries(bundle)('../boundaries/albums.json')).toEqual(albums);
    expect(() => bundledBoundaries(bundle)('../boundaries/other.json')).toThrow(/was not bundled/);
  });

  it('refuses to start without credentials where the SDK cannot find any (Workers)', () => {
    expect(() =>
      createBundledService({ AWS_REGION: 'eu-west-1', ...SECRET }, bundle, {
        docsAssets: noAssets,
        requireCredentials: true,
      }),
    ).toThrow(/AWS_ACCESS_KEY_ID/);
    expect(() =>
      createBundledService({ REQUEST_TIMEOUT_MS: 'soon', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' }, bundle, {
        docsAssets: noAssets,
        requireCredentials: true,
      }),
    ).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('refuses to start without a CURSOR_SECRET of at least 32 bytes, saying why', () => {
    const local = { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' };
    const options = { docsAssets: noAssets, requireCredentials: true };
    expect(() => createBundledService(local, bundle, options)).toThrow(/CURSOR_SECRET must be set .*it is unset/);
    expect(() => createBundledService({ ...local, CURSOR_SECRET: 'x'.repeat(31) }, bundle, options)).toThrow(
      /at least 32 bytes \(it is 31 bytes\)/,
    );
    // Bytes, not characters: 11 three-byte characters are 33 bytes.
    expect(() => createBundledService({ ...local, CURSOR_SECRET: '€'.repeat(11) }, bundle, options)).not.toThrow();
  });

  it('answers 503 until its table exists (SHARDLINE_CREATE_TABLE=false), the docs meanwhile, then serves', async () => {
    const table = `t-${randomUUID()}`;
    const env = {
      DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal,
      TABLE_NAME: table,
      SHARDLINE_CREATE_TABLE: 'false',
      ...SECRET,
    };
    const { app } = createBundledService(env, bundle, { docsAssets: noAssets, requireCredentials: true });
    const early = await get(app, '/collections/albums/items');
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(early.body.error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/not ready/) });
    expect(JSON.stringify(early.body)).not.toContain(table);
    expect((await get(app, '/openapi.json')).status).toBe(200);
    expect((await app.request('/docs')).status).toBe(200);
    // The docs' files are not behind the gate either (whatever this build's assets answer).
    expect((await app.request('/docs/assets/swagger-ui.css')).status).not.toBe(503);

    await startTestService('dynamodbLocal', { env: { TABLE_NAME: table } }); // creates the table
    const later = await get(app, '/collections/albums/items');
    expect(later).toMatchObject({ status: 200, body: { items: [], nextCursor: null } });
  });

  it('creates its table on the first request when allowed', async () => {
    const env = { DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal, TABLE_NAME: `t-${randomUUID()}`, ...SECRET };
    const { app } = createBundledService(env, bundle satisfies ConfigBundle, {
      docsAssets: noAssets,
      requireCredentials: false,
    });
    expect(await get(app, '/healthz')).toMatchObject({ status: 200, body: { ok: true } });
  });
});
