import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemEtag, parseEtagList } from '../../../src/core/etag';
import { ExactNumber } from '../../../src/core/exact-number';
import { applyMergePatch } from '../../../src/core/merge-patch';
import { canonicalText, fromWire, itemFromWire, itemToWire, toWire, ValueSet } from '../../../src/core/values';
import { jsonText } from '../../../src/http/json-text';
import { parseJsonBody } from '../../../src/http/lossless-json';

const wire = (text: string) => parseJsonBody(new TextEncoder().encode(text).buffer as ArrayBuffer);

describe('attribute values on the wire', () => {
  it('parse numbers as their exact text and write them back as digits', () => {
    const parsed = wire('{"a":12345678901234567890,"b":[1E-130,-0.10]}') as { a: ExactNumber };
    expect(parsed.a).toEqual(new ExactNumber('12345678901234567890'));
    expect(jsonText(parsed)).toBe('{"a":12345678901234567890,"b":[1E-130,-0.10]}');
  });

  it('refuse bodies that are not well-formed UTF-8 or not JSON', () => {
    expect(() => parseJsonBody(new Uint8Array([0x7b, 0xff, 0x7d]).buffer)).toThrow(/UTF-8/);
    expect(() => wire('{"a":1,"a":2}')).toThrow(/not valid JSON/);
    expect(() => wire('{')).toThrow(/not valid JSON/);
  });

  it('read markers as sets and binary, and write them back alike', () => {
    const item = itemFromWire(
      wire(
        '{"s":{"$set":["a","b"]},"n":{"$set":[1,2.5]},"b":{"$binary":"AAE="},"bs":{"$set":[{"$binary":"AQ=="}]}}',
      ) as Record<string, unknown>,
    );
    expect(item.s).toEqual(new ValueSet('S', ['a', 'b']));
    expect((item.n as ValueSet).kind).toBe('N');
    expect(item.b).toEqual(new Uint8Array([0, 1]));
    expect((item.bs as ValueSet).kind).toBe('B');
    expect(jsonText(itemToWire(item))).toBe(
      '{"s":{"$set":["a","b"]},"n":{"$set":[1,2.5]},"b":{"$binary":"AAE="},"bs":{"$set":[{"$binary":"AQ=="}]}}',
    );
  });

  it('keep a map whose only key is a marker unambiguous with $map, both ways', () => {
    const literal = { $set: 'plain' };
    expect(toWire(literal)).toEqual({ $map: { $set: 'plain' } });
    expect(fromWire({ $map: { $set: 'plain' } }, 'x')).toEqual(literal);
    // Two keys is a map, whatever they are called; a top-level attribute may be named like a marker.
    expect(fromWire({ $set: 1, other: 2 }, 'x')).toEqual({ $set: 1, other: 2 });
    expect(itemFromWire({ $binary: 'x' })).toEqual({ $binary: 'x' });
  });

  it('round-trip any value through its JSON form', () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.bigInt().map((n) => new ExactNumber(String(n))),
      fc.uint8Array({ maxLength: 5 }),
      fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 4 }).map((e) => new ValueSet('S', e)),
    );
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('$set', '$map', '$binary')), tie('value'), {
          maxKeys: 2,
        }),
      ),
    })).value;
    fc.assert(
      fc.property(value, (v) => {
        const text = jsonText(toWire(v));
        expect(canonicalText(fromWire(wire(text), 'v'))).toBe(canonicalText(v));
      }),
    );
  });

  it('refuse malformed markers, naming the attribute', () => {
    for (const bad of [{ $set: [] }, { $set: ['a', new ExactNumber('1')] }, { $set: ['a', 'a'] }, { $binary: '***' }]) {
      expect(() => fromWire(bad, 'meta.tags')).toThrow(/"meta\.tags"/);
    }
    expect(() => fromWire({ $set: [new ExactNumber('1'), new ExactNumber('1.0')] }, 'n')).toThrow(/each value once/);
  });
});

describe('ETags', () => {
  it('are equal for items DynamoDB holds equal, and differ otherwise', () => {
    const a = { n: new ExactNumber('1.50'), s: new ValueSet('S', ['x', 'y']), m: { p: 1, q: 2 } };
    const b = { m: { q: 2, p: 1 }, s: new ValueSet('S', ['y', 'x']), n: new ExactNumber('15e-1') };
    expect(itemEtag(a)).toBe(itemEtag(b));
    expect(itemEtag(a)).not.toBe(itemEtag({ ...a, n: new ExactNumber('1.51') }));
  });

  it('parse If-Match lists, dropping weak tags', () => {
    expect(parseEtagList('*')).toBe('*');
    expect(parseEtagList('"a", W/"b", "c"')).toEqual(['a', 'c']);
    expect(parseEtagList(undefined)).toBeUndefined();
  });
});

describe('JSON merge patch (RFC 7396)', () => {
  it('follows the RFC examples', () => {
    const target = { a: 'b', c: { d: 'e', f: 'g' } };
    expect(applyMergePatch(target, { a: 'z', c: { f: null } })).toEqual({ a: 'z', c: { d: 'e' } });
    expect(applyMergePatch({ a: ['b'] }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'foo' }, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
    expect(applyMergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
  });

  it('replaces with typed values instead of merging their markers', () => {
    const target = { tags: new ValueSet('S', ['a']) };
    expect(applyMergePatch(target, { tags: { $set: ['b'] } })).toEqual({ tags: new ValueSet('S', ['b']) });
    expect(applyMergePatch({ m: { x: 1 } }, { m: { $map: { $set: 1 } } })).toEqual({ m: { $set: 1 } });
  });
});
