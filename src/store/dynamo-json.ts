import { malformedRecord } from '../core/errors';
import { ExactNumber } from '../core/exact-number';
import type { JsonObject } from '../core/item';
import { emptyRecord, type SetElement, ValueSet } from '../core/values';

/** One attribute value in DynamoDB's wire JSON: `{ "S": "…" }`, `{ "N": "12.50" }`, `{ "B": "<base64>" }`, … */
export type AttributeJson = Readonly<Record<string, unknown>>;

/**
 * An item in DynamoDB's wire JSON as a core record, in one pass: the same result as the SDK's
 * deserializer, `unmarshall` with `wrapNumbers` and `recordFromSdk` in turn, without building the
 * two shapes in between (test/unit/values/dynamo-json.test.ts).
 */
export function recordFromDynamoJson(item: Readonly<Record<string, AttributeJson>>): JsonObject {
  const out = emptyRecord();
  for (const name of Object.keys(item)) out[name] = valueFromDynamoJson(item[name]!);
  return out;
}

function valueFromDynamoJson(attribute: AttributeJson): unknown {
  // Exactly one member is set; the common ones are tested first.
  if (attribute.S !== undefined) return attribute.S;
  if (attribute.N !== undefined) return new ExactNumber(attribute.N as string);
  if (attribute.BOOL !== undefined) return attribute.BOOL;
  if (attribute.NULL !== undefined) return null;
  if (attribute.M !== undefined) return recordFromDynamoJson(attribute.M as Record<string, AttributeJson>);
  if (attribute.L !== undefined) return (attribute.L as AttributeJson[]).map(valueFromDynamoJson);
  if (attribute.B !== undefined) return bytesOf(attribute.B);
  if (attribute.SS !== undefined) return new ValueSet('S', attribute.SS as string[]);
  if (attribute.NS !== undefined)
    return new ValueSet(
      'N',
      (attribute.NS as string[]).map((n) => new ExactNumber(n)),
    );
  if (attribute.BS !== undefined) return new ValueSet('B', (attribute.BS as unknown[]).map(bytesOf) as SetElement[]);
  const types = Object.keys(attribute).join(', ');
  throw malformedRecord(`DynamoDB answered an attribute value of no type shardline knows: ${types}`);
}

/** Binary is base64 text in JSON; bytes already decoded are taken as they are. */
export function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return Uint8Array.from(atob(value as string), (c) => c.charCodeAt(0));
}
