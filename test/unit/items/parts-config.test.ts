import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { firstMapOf } from '../../../src/core/collection';
import { decideIndexing } from '../../../src/core/member-indexing';
import { chunkSortKey, decodePart, encodePart, parseChunkSortKey, splitEntity } from '../../../src/core/parts';
import { memberKey } from '../../../src/core/reindex';
import { ExactNumber } from '../../../src/core/exact-number';
import { ValueSet } from '../../../src/core/values';

const hash = { kind: 'hash', shards: 2 };
const withParts = (parts: unknown, table?: unknown) => ({
  ...(table !== undefined && { table }),
  collections: { people: { field: 'name', strategy: hash, parts } },
});
const oneLine = (config: unknown) => {
  try {
    resolveConfig(config);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('parts in the config', () => {
  it('accepts named groups of attributes on a table with a string sort key', () => {
    const [people] = resolveConfig(withParts({ contact: ['email', 'phone'], cart: ['cart'] }));
    expect(people?.parts).toEqual({ contact: ['email', 'phone'], cart: ['cart'] });
  });

  it('refuses, in one line naming why, a table without a string sort key', () => {
    const noSortKey = { sortKey: null };
    expect(oneLine(withParts({ contact: ['email'] }, noSortKey))).toMatch(
      /^collection "people": parts need a table with a string sort key/,
    );
    const numeric = { sortKey: { name: 'sk', type: 'N' } };
    expect(oneLine(withParts({ contact: ['email'] }, numeric))).toMatch(/string sort key/);
  });

  it('refuses a key attribute, the ordered field, or an attribute in two parts', () => {
    expect(oneLine(withParts({ contact: ['pk'] }))).toMatch(/"pk" is a primary key attribute/);
    expect(oneLine(withParts({ contact: ['name'] }))).toMatch(/"name" is an ordered field/);
    expect(oneLine(withParts({ a: ['email'], b: ['email'] }))).toMatch(/"email" is in two parts \("a" and "b"\)/);
    expect(oneLine(withParts({ a: [] }))).toMatch(/^collections\.people\.parts\.a: /);
  });
});

describe('parts: layout', () => {
  it('splits an entity, and a part round-trips exactly (digits, sets, binary, __proto__)', () => {
    const entity = JSON.parse('{"pk":"p","name":"n","email":"e","__proto__":1}');
    entity.cart = { total: new ExactNumber('12.50'), tags: new ValueSet('S', ['a']), raw: new Uint8Array([0, 1]) };
    const { root, parts } = splitEntity({ contact: ['email', '__proto__'], cart: ['cart'] }, entity);
    expect(Object.keys(root)).toEqual(['pk', 'name']);
    expect(Object.keys(parts.get('contact')!)).toEqual(['email', '__proto__']);
    const contact = decodePart(encodePart(parts.get('contact')!));
    expect(Object.getOwnPropertyDescriptor(contact, '__proto__')?.value).toEqual(new ExactNumber('1'));
    const back = decodePart(encodePart(parts.get('cart')!));
    expect(String((back.cart as { total: ExactNumber }).total)).toBe('12.50');
    expect(new TextDecoder().decode(encodePart(parts.get('cart')!))).toBe(
      '{"cart":{"total":12.50,"tags":{"$set":["a"]},"raw":{"$binary":"AAE="}}}',
    );
  });

  it("a chunk's sort key names its root, part and version, and no other root's", () => {
    const key = chunkSortKey('profile', 'contact', 'v1', 0);
    expect(parseChunkSortKey('profile', key)).toEqual({ part: 'contact', version: 'v1' });
    expect(parseChunkSortKey('prof', key)).toBeUndefined();
  });

  it('a chunk is never a member, even where a members rule matches it', () => {
    const [people] = resolveConfig({
      collections: {
        people: {
          field: 'name',
          strategy: hash,
          members: { attribute: 'kind', equals: 'person' },
          parts: { c: ['email'] },
        },
      },
    }).map(firstMapOf);
    const chunk = { pk: 'p', sk: chunkSortKey('s', 'c', 'v', 0), kind: 'person', name: 'n', _partOf: 's' };
    expect(
      decideIndexing(
        [people!],
        chunk,
        () => false,
        () => 0,
      ),
    ).toEqual({ kind: 'not-member' });
    expect(memberKey(people!, chunk, () => false)).toEqual({ kind: 'not-member' });
    expect(
      decideIndexing(
        [people!],
        { ...chunk, _partOf: undefined },
        () => false,
        () => 0,
      ).kind,
    ).toBe('update');
  });
});
