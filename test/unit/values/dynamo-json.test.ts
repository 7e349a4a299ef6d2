import { Buffer } from 'node:buffer';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../src/core/exact-number';
import { ValueSet } from '../../../src/core/values';
import { recordFromDynamoJson } from '../../../src/store/dynamo-json';
import { recordFromSdk } from '../../../src/store/values';

/**
 * Attribute names; not `__proto__`, which the SDK's unmarshall drops (shardline refuses it on
 * writes, src/core/values.ts), so there is nothing to compare. The JSON path keeps it as a name.
 */
const name = fc.oneof(
  fc.string().filter((n) => n !== '__proto__'),
  fc.constant('constructor'),
);

/** Attribute values as the SDK's deserializer hands them over: binary as bytes. */
const attributeValue: fc.Arbitrary<AttributeValue> = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string().map((S) => ({ S })),
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => ({ N: String(n) })),
    fc.constant({ N: '123456789012345678901234567890.000000001' }),
    fc.boolean().map((BOOL) => ({ BOOL })),
    fc.constant({ NULL: true as const }),
    fc.uint8Array({ maxLength: 8 }).map((B) => ({ B })),
    fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 4 }).map((SS) => ({ SS })),
    fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 4 }).map((ns) => ({ NS: ns.map(String) })),
    fc.array(fc.uint8Array({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }).map((BS) => ({ BS })),
    fc.array(tie('value'), { maxLength: 3 }).map((L) => ({ L })),
    fc.dictionary(name, tie('value'), { maxKeys: 3 }).map((M) => ({ M })),
  ),
})).value;

const item = fc.dictionary(name, attributeValue, { maxKeys: 5 });

/** The item as DynamoDB's JSON carries it: the SDK's shape with binary as base64 text. */
function wireJson(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(wireJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, wireJson(inner)]));
}

describe('recordFromDynamoJson', () => {
  it('reads what the SDK deserializer, unmarshall and recordFromSdk read, in one pass', () => {
    fc.assert(
      fc.property(item, (sdkShape) => {
        const viaSdk = recordFromSdk(unmarshall(sdkShape, { wrapNumbers: true }));
        // Through JSON text, as the query client reads it.
        const text = JSON.stringify(wireJson(sdkShape));
        // toEqual: toStrictEqual compares `.constructor`, an attribute name here.
        expect(recordFromDynamoJson(JSON.parse(text))).toEqual(viaSdk);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every digit of a number and decodes binary and sets', () => {
    const record = recordFromDynamoJson({
      price: { N: '0.10000000000000000000000000000000000001' },
      blob: { B: 'AAEC/w==' },
      tags: { NS: ['1', '2.50'] },
      __proto__: { S: 'a name, not a prototype' },
    } as never);
    expect(record.price).toEqual(new ExactNumber('0.10000000000000000000000000000000000001'));
    expect(record.blob).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(record.tags).toEqual(new ValueSet('N', [new ExactNumber('1'), new ExactNumber('2.50')]));
    expect(Object.getPrototypeOf(record)).toBeNull();
  });

  it('refuses a value of no known type rather than guessing', () => {
    expect(() => recordFromDynamoJson({ a: { X: 1 } })).toThrow(/no type/);
  });
});
