import { expect, it } from 'vitest';
import { clientTypes, committedClientTypes } from '../../../scripts/client-types';

it("the client's types are what the served document gives today (else: npm run client:types)", async () => {
  const generated = await clientTypes();
  expect(generated.size).toBeGreaterThan(40);
  expect(committedClientTypes()).toEqual(generated);
});
