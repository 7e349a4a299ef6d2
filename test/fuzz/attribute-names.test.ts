import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

/** Names DynamoDB stores like any other that a JavaScript object reads as its own machinery. */
const NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
  'a',
];

/** A JSON value (as a value, not text) whose maps use those names. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 5 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), tie('value')), { maxLength: 3, selector: ([name]) => name })
      .map(objectText),
  ),
})).value;

/** JSON text of an object from entries, `__proto__` written as a plain member (as a client sends it). */
function objectText(entries: [string, unknown][]): { text: string } {
  return { text: `{${entries.map(([name, v]) => `${JSON.stringify(name)}:${textOf(v)}`).join(',')}}` };
}

function textOf(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(textOf).join(',')}]`;
  if (typeof v === 'object' && v !== null) return (v as { text: string }).text;
  return JSON.stringify(v);
}

const extra = fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), value), {
  maxLength: 4,
  selector: ([name]) => name,
});

const request = fc.record({
  door: fc.constantFrom('PUT', 'batch', 'PATCH'),
  pk: fc.constantFrom('f1', 'f2', 'f3'),
  extra,
});

describe('attribute names that are JavaScript machinery, fuzzed through PUT, batch and PATCH', () => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService('dynalite'));
  });

  it('never answers 5xx; refuses __proto__ by name; stores everything else and returns it exactly', async () => {
    const send = (method: string, path: string, body?: string) =>
      app.request(path, { method, ...(body && { headers: { 'content-type': 'application/json' }, body }) });
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ door, pk, extra: entries }) => {
        const members: [string, unknown][] = [['pk', pk], ['sk', 's'], ['title', 'T'], ...entries];
        const text = textOf(objectText(members));
        const hasProto = text.includes('"__proto__":');
        const path = `/collections/albums/item?pk=${pk}&sk=s`;
        const current = async () => {
          const read = await send('GET', path);
          return { status: read.status, item: ((await read.json()) as { item?: unknown }).item };
        };
        const before = await current();
        const response =
          door === 'PUT'
            ? await send('PUT', '/collections/albums/items', text)
            : door === 'batch'
              ? await send('POST', '/collections/albums/items/batch', `{"items":[${text}]}`)
              : await send('PATCH', path, textOf(objectText(entries)));
        const answer = await response.text();
        expect(response.status, `${door} ${text} -> ${answer.slice(0, 200)}`).toBeLessThan(500);
        if (hasProto) {
          expect(response.status, answer).toBe(400);
          expect(JSON.parse(answer).error.attribute).toBe('__proto__');
          expect(await current()).toEqual(before);
          return;
        }
        if (door === 'PATCH' && response.status === 404) return; // nothing stored under that key yet
        expect(response.status, answer).toBeLessThan(300);
        stored++;
        const read = (await current()).item as Record<string, unknown>;
        if (door === 'PATCH') {
          // A merge patch: every member it set is there as sent (null removes; maps merge).
          for (const [name, v] of entries) {
            if (v === null) expect(Object.hasOwn(read, name), name).toBe(false);
            else if (typeof v !== 'object' || Array.isArray(v)) expect(read[name], name).toEqual(JSON.parse(textOf(v)));
          }
        } else {
          expect(read).toEqual(JSON.parse(text));
        }
      }),
      { numRuns: 150 },
    );
    expect(stored).toBeGreaterThan(10);
  });
});
