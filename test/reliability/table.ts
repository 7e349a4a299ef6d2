import { inject } from 'vitest';
import type { JsonObject } from '../../src/core/item';
import type { EngineEndpoints } from '../support/global-setup';
import { scanTable as scanEndpoint } from '../support/table-scan';

export type Row = JsonObject;

/** Every item of a table, read from the engine directly (not through the proxy or shardline). */
export function scanTable(engine: keyof EngineEndpoints, table: string): Promise<Row[]> {
  return scanEndpoint(inject('engines')[engine], table);
}
