import { describe, expect, it } from 'vitest';
import { clientKeys } from '../../../src/runtime/aws-keys';
import { readSettings } from '../../../src/runtime/settings';

describe('readSettings', () => {
  it('reads what the Node server needs of its environment, so no runtime reads process.env beside it', () => {
    expect(readSettings({})).toMatchObject({ dataDir: 'data', awsKeys: undefined, loadRecords: undefined });
    expect(readSettings({ SHARDLINE_DATA_DIR: '/srv/shardline' }).dataDir).toBe('/srv/shardline');
  });

  it('hands the SDK the keys given; else any for a local engine, and none for AWS but on Workers', () => {
    const keys = { AWS_ACCESS_KEY_ID: ' AKID ', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' };
    const given = { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token' };
    expect(clientKeys(readSettings({ ...keys, AWS_REGION: 'eu-west-1' }), true)).toEqual(given);
    expect(() => clientKeys(readSettings({ AWS_REGION: 'eu-west-1' }), true)).toThrow(/AWS_SECRET_ACCESS_KEY/);
    expect(clientKeys(readSettings({ ...keys, DYNAMODB_ENDPOINT: 'http://localhost:8000' }))).toEqual(given);
    const local = clientKeys(readSettings({ AWS_ACCESS_KEY_ID: 'AKID', DYNAMODB_ENDPOINT: 'http://localhost:8000' }));
    expect(local).toEqual({ accessKeyId: 'shardline', secretAccessKey: 'shardline' });
    expect(clientKeys(readSettings({ AWS_REGION: 'eu-west-1' }))).toBeUndefined();
  });

  it("leaves load records to the runtime when unset, and takes an operator's word either way", () => {
    expect(readSettings({ SHARDLINE_LOAD_RECORDS: '' }).loadRecords).toBeUndefined();
    expect(readSettings({ SHARDLINE_LOAD_RECORDS: 'true' }).loadRecords).toBe(true);
    expect(readSettings({ SHARDLINE_LOAD_RECORDS: 'false' }).loadRecords).toBe(false);
    expect(() => readSettings({ SHARDLINE_LOAD_RECORDS: 'maybe' })).toThrow(/SHARDLINE_LOAD_RECORDS/);
  });

  it('has no rate limit unless one is set, and refuses one that is not a whole number in range', () => {
    expect(readSettings({}).rateLimitPerSecond).toBeUndefined();
    expect(readSettings({ RATE_LIMIT_PER_SECOND: ' ' }).rateLimitPerSecond).toBeUndefined();
    expect(readSettings({ RATE_LIMIT_PER_SECOND: '250' }).rateLimitPerSecond).toBe(250);
    expect(() => readSettings({ RATE_LIMIT_PER_SECOND: '0' })).toThrow(/RATE_LIMIT_PER_SECOND/);
    expect(() => readSettings({ RATE_LIMIT_PER_SECOND: '1.5' })).toThrow(/RATE_LIMIT_PER_SECOND/);
  });
});
