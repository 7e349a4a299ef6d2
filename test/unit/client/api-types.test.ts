import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { clientTypes } from '../../../scripts/client-types';

it("the client's types are what the served document gives today (else: npm run client:types)", async () => {
  const committed = readFileSync(resolve(import.meta.dirname, '../../../src/client/api.ts'), 'utf8');
  expect(await clientTypes()).toBe(committed);
});
