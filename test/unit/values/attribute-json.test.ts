import { Buffer } from 'node:buffer';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cannedDocumentClient } from '../../support/canned-document-client';
import { ExactNumber } from '../../../src/core/exact-number';
import { ValueSet } from '../../../src/core/values';
import { attributeJson, placeholdersJson, recordToDynamoJson } from '../../../src/store/attribute-json';
import { ExpressionBuilder } from '../../../src/store/conditions';
import { recordFromDynamoJson } from '../../../src/store/dynamo-json';
import { recordToSdk } from '../../../src/store/values';

const PROTO = '__proto__';
const name = fc.oneof(
  fc.string().filter((n) => n !== '__proto__'),
  fc.constant('constructor'),
);

/** Core records, made as the store reads them: from DynamoDB's JSON. */
const attribute: fc.Arbitrary<AttributeValue> = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string().map((S) => ({ S })),
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => ({ N: String(n) })),
    fc.constant({ N: '-123456789012345678901234567890.000000001' }),
    fc.boolean().map((BOOL) => ({ BOOL })),
    fc.constant({ NULL: true as const }),
    fc.uint8Array({ maxLength: 8 }).map((B) => ({ B: Buffer.from(B).toString('base64') }) as never),
    fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 4 }).map((SS) => ({ SS })),
    fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 4 }).map((ns) => ({ NS: ns.map(String) })),
    fc
      .array(fc.uint8Array({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 })
      .map((bs) => ({ BS: bs.map((b) => Buffer.from(b).toString('base64')) }) as never),
    fc.array(tie('value'), { maxLength: 3 }).map((L) => ({ L })),
    fc.dictionary(name, tie('value'), { maxKeys: 3 }).map((M) => ({ M })),
  ),
})).value;
const record = fc.dictionary(name, attribute, { maxKeys: 5 }).map((wire) => recordFromDynamoJson(wire as never));

/** What the SDK's serializer writes: the marshaller's shape with binary as base64 text. */
function asSent(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_, inner) => (inner instanceof Uint8Array ? Buffer.from(inner).toString('base64') : inner)),
  );
}

describe('recordToDynamoJson', () => {
  it("writes what the exact document client sends for recordToSdk's values", async () => {
    const { doc, bodies } = cannedDocumentClient();
    await fc.assert(
      fc.asyncProperty(record, async (core) => {
        await doc.send(new PutCommand({ TableName: 't', Item: recordToSdk(core) }));
        const sent = (JSON.parse(bodies.pop()!) as { Item: unknown }).Item;
        expect(JSON.parse(JSON.stringify(recordToDynamoJson(core)))).toEqual(sent);
      }),
      { numRuns: 300 },
    );
  });

  it('writes the SDK forms an expression builder holds alike (exact numbers, sets, maps)', () => {
    const builder = new ExpressionBuilder();
    builder.value(new ExactNumber('12345678901234567890.10'));
    builder.value(new ValueSet('S', ['a', 'b']));
    builder.value({ nested: [new ExactNumber('1e400')] });
    builder.name('title');
    const { ExpressionAttributeValues: values, ExpressionAttributeNames: names } = builder.placeholders();
    expect(placeholdersJson(builder.placeholders())).toEqual({
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: asSent(marshall(values!, { removeUndefinedValues: true })),
    });
    expect(placeholdersJson({})).toEqual({});
  });

  it('keeps every digit, and an attribute named __proto__ as an attribute', () => {
    // As JSON.parse makes it: an own property, not the prototype.
    const core = JSON.parse('{"__proto__": 0}') as Record<string, unknown>;
    core[PROTO] = new ExactNumber('0.10000000000000000000000000000000000001');
    const text = JSON.stringify(recordToDynamoJson(core));
    expect(text).toBe('{"__proto__":{"N":"0.10000000000000000000000000000000000001"}}');
  });

  it('refuses what the SDK refuses: an empty set, a double it cannot hold exactly, NaN', () => {
    expect(() => attributeJson(new Set())).toThrow(/non-empty set/);
    expect(() => attributeJson(2 ** 60)).toThrow(/safe integer/);
    expect(() => attributeJson(Number.NaN)).toThrow(/Special numeric value/);
    expect(() => attributeJson(() => 1)).toThrow(/Unsupported/);
  });
});
