import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ExactNumber } from '../../src/core/exact-number';
import { canonicalText, ValueSet } from '../../src/core/values';
import { putBehindTheBack } from '../support/behind-the-back';
import type { EngineEndpoints } from '../support/global-setup';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { jsonText, NUMERIC_KEY_CONFIG, send } from './support';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const withoutEtag = ({ _etag, ...rest }: Record<string, unknown>) => rest;

/** Lossless values end to end: exact numbers, sets, binary, through the API and in the table. */
export function defineValuesSuite(engine: keyof EngineEndpoints): void {
  describe(`lossless values over ${engine}`, () => {
    let app: App;
    let table: string;
    const raw = async (pk: string) => (await scanTable(inject('engines')[engine], table)).find((r) => r.pk === pk);

    beforeAll(async () => {
      ({ app, table } = await startTestService(engine));
    });

    it('keeps 38 digits and the exponent limits exactly, in the response and in the table', async () => {
      const numbers = {
        digits38: '12345678901234567890123456789012345678',
        negative: '-0.00000000000000000000000000000000000012345678901234567890123456789012345678',
        largest: '9.9999999999999999999999999999999999999E+125',
        smallest: '1E-130',
        beyondDouble: '12345678901234567890',
      };
      const body = `{"pk":"n1","sk":"s","title":"Numbers",${Object.entries(numbers)
        .map(([name, digits]) => `"${name}":${digits}`)
        .join(',')}}`;
      const written = await send(app, 'PUT', '/collections/albums/items', body);
      expect(written.status, written.text).toBe(201);
      const read = await send(app, 'GET', '/collections/albums/item?pk=n1&sk=s');
      expect(read.text).toContain('"beyondDouble":12345678901234567890');
      expect(read.text).toContain('"digits38":12345678901234567890123456789012345678');
      const stored = await raw('n1');
      for (const [name, digits] of Object.entries(numbers)) {
        expect(read.body.item[name], name).toBeInstanceOf(ExactNumber);
        expect(canonicalText(read.body.item[name]), name).toBe(canonicalText(new ExactNumber(digits)));
        expect(canonicalText(stored?.[name]), name).toBe(canonicalText(new ExactNumber(digits)));
      }
    });

    it('refuses numbers DynamoDB cannot hold with a 400 naming the attribute, and writes nothing', async () => {
      for (const [digits, why] of [
        ['123456789012345678901234567890123456789', /39 significant digits/],
        ['1E+126', /too large/],
        ['1E-131', /too small/],
      ] as const) {
        const body = `{"pk":"bad","sk":"s","title":"T","meta":{"list":[1,${digits}]}}`;
        const answer = await send(app, 'PUT', '/collections/albums/items', body);
        expect(answer.status, digits).toBe(400);
        expect(answer.body.error.message).toContain('"meta.list[1]"');
        expect(answer.body.error.message).toMatch(why);
      }
      expect(await raw('bad')).toBeUndefined();
    });

    it('keeps two numeric primary keys past 2^53 apart', async () => {
      const service = await startTestService(engine, { config: NUMERIC_KEY_CONFIG });
      for (const id of ['9007199254740993', '9007199254740992']) {
        const put = await send(service.app, 'PUT', '/collections/nums/items', `{"pk":"k","n":${id},"title":"Same"}`);
        expect(put.status, put.text).toBe(201);
      }
      const listing = await send(service.app, 'GET', '/collections/nums/items');
      expect(listing.body.items.map((item: { n: ExactNumber }) => item.n.text).sort()).toEqual([
        '9007199254740992',
        '9007199254740993',
      ]);
      const one = await send(service.app, 'GET', '/collections/nums/item?pk=k&n=9007199254740993');
      expect(one.text).toContain('"n":9007199254740993');
      expect(await scanTable(inject('engines')[engine], service.table)).toHaveLength(2);
    });

    it('round-trips sets, binary and nested values: PUT of what GET returned stores the identical item', async () => {
      const item = {
        pk: 'sets',
        sk: 's',
        title: 'Sets',
        tags: { $set: ['rock', 'jazz'] },
        scores: { $set: [new ExactNumber('1'), new ExactNumber('2.5'), new ExactNumber('12345678901234567890')] },
        cover: { $binary: 'AAEC/w==' },
        covers: { $set: [{ $binary: 'AQ==' }, { $binary: 'Ag==' }] },
        nested: { inner: { $set: ['x'] }, list: [new ExactNumber('1'), { $binary: 'AA==' }] },
        literal: { $map: { $set: 'not a set' } },
        $set: 'an attribute named like the marker',
      };
      expect((await send(app, 'PUT', '/collections/albums/items', jsonText(item))).status).toBe(201);
      const first = await raw('sets');
      expect(first?.tags).toBeInstanceOf(ValueSet);
      expect((first!.tags as ValueSet).kind).toBe('S');
      expect((first!.scores as ValueSet).kind).toBe('N');
      expect((first!.covers as ValueSet).kind).toBe('B');
      expect(first?.cover).toEqual(new Uint8Array([0, 1, 2, 255]));
      expect(first?.literal).toEqual({ $set: 'not a set' });

      const read = await send(app, 'GET', '/collections/albums/item?pk=sets&sk=s');
      expect(read.body.item.literal).toEqual({ $map: { $set: 'not a set' } });
      expect(read.body.item.$set).toBe('an attribute named like the marker');
      expect((await send(app, 'PUT', '/collections/albums/items', jsonText(read.body.item))).status).toBe(201);
      expect(canonicalText(await raw('sets'))).toBe(canonicalText(first));
    });

    it('round-trips an item another tool wrote with SS, NS, BS and B attributes', async () => {
      expect((await send(app, 'PUT', '/collections/albums/items', '{"pk":"tool","sk":"s","title":"T"}')).status).toBe(
        201,
      );
      const ours = (await raw('tool'))!;
      const { _etag, ...indexed } = ours;
      await putBehindTheBack(inject('engines')[engine], table, [
        {
          ...indexed,
          strings: new Set(['a', 'b']),
          numbers: new Set([1, 2]),
          bytes: new Set([new Uint8Array([1]), new Uint8Array([2, 3])]),
          blob: new Uint8Array([9, 8, 7]),
          float: 0.1,
        },
      ]);
      const before = (await raw('tool'))!;
      const read = await send(app, 'GET', '/collections/albums/item?pk=tool&sk=s');
      expect(read.body.item.strings.$set.sort()).toEqual(['a', 'b']);
      expect(read.body.item.blob).toEqual({ $binary: 'CQgH' });
      expect(read.body.item.float.text).toBe('0.1');
      expect((await send(app, 'PUT', '/collections/albums/items', jsonText(read.body.item))).status).toBe(201);
      expect(canonicalText(withoutEtag((await raw('tool'))!))).toBe(canonicalText(withoutEtag(before)));
    });

    it('refuses malformed sets and binary, and a body that is not well-formed UTF-8', async () => {
      for (const value of ['{"$set":[]}', '{"$set":["a",1]}', '{"$set":["a","a"]}', '{"$binary":"not base64!"}']) {
        const answer = await send(
          app,
          'PUT',
          '/collections/albums/items',
          `{"pk":"m","sk":"s","title":"T","v":${value}}`,
        );
        expect(answer.status, value).toBe(400);
        expect(answer.body.error.message, value).toContain('"v"');
      }
      const bytes = new Uint8Array([...new TextEncoder().encode('{"pk":"u","sk":"s","title":"'), 0xff, 0x22, 0x7d]);
      const invalid = await send(app, 'PUT', '/collections/albums/items', bytes);
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.code).toBe('invalid_json');
      expect(await raw('u')).toBeUndefined();
    });
  });
}
