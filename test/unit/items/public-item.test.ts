import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../src/core/exact-number';
import type { JsonObject } from '../../../src/core/item';
import { itemToWire, setOwn, ValueSet } from '../../../src/core/values';
import { jsonText } from '../../../src/http/json-text';
import { PublicWireItem } from '../../../src/http/routes/public-item';

const HIDDEN = new Set(['gsi1pk', 'gsi1sk', '_etag']);

const value = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt().map((n) => new ExactNumber(String(n))),
  fc.uint8Array({ maxLength: 4 }),
  fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 3 }).map((e) => new ValueSet('S', e)),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);
const name = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...HIDDEN, '__proto__', 'title', '$set'));
const record = fc.array(fc.tuple(name, value), { maxLength: 8 }).map((members) => {
  const out: JsonObject = {};
  for (const [n, v] of members) setOwn(out, n, v);
  return out;
});

/** What a public item is: the record's own members less the hidden ones, chosen and ordered by `fields`. */
function expected(source: JsonObject, fields: readonly string[] | undefined): JsonObject {
  const out: JsonObject = {};
  for (const n of fields ?? Object.keys(source))
    if (!HIDDEN.has(n) && Object.hasOwn(source, n)) setOwn(out, n, source[n]);
  return itemToWire(out) as JsonObject;
}

describe('a public item, written without a copy', () => {
  it('writes the text of the item it stands for, with or without fields', () => {
    fc.assert(
      fc.property(record, fc.option(fc.uniqueArray(name, { maxLength: 5 }), { nil: undefined }), (source, fields) => {
        const item = new PublicWireItem(HIDDEN, source, fields);
        const text = jsonText(expected(source, fields));
        expect(jsonText(item)).toBe(text);
        expect(jsonText(item.toJSON())).toBe(text);
        expect(jsonText({ items: [item, item] })).toBe(`{"items":[${text},${text}]}`);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out shardline attributes, keeps __proto__ a name and follows the fields given', () => {
    const source: JsonObject = { title: 'A', gsi1sk: 'a\u0000x', year: new ExactNumber('1999.10') };
    setOwn(source, '__proto__', 'kept');
    expect(jsonText(new PublicWireItem(HIDDEN, source, undefined))).toBe(
      '{"title":"A","year":1999.10,"__proto__":"kept"}',
    );
    expect(jsonText(new PublicWireItem(HIDDEN, source, ['year', 'gsi1sk', 'missing', 'title']))).toBe(
      '{"year":1999.10,"title":"A"}',
    );
    expect(Object.keys(new PublicWireItem(HIDDEN, source, undefined).toJSON())).toEqual(['title', 'year', '__proto__']);
  });
});
