import { describe, expect, it } from 'vitest';
import { MAX_AHEAD, packHint, unpackHint } from '../../../src/core/read-hint';

describe('read hints', () => {
  it('round-trip through their cursor text, one base-36 digit a shard up to 36 shards, two beyond', () => {
    const small = { more: [true, false, true], ahead: [2, 0, 2, 2, 1] };
    expect(packHint(small)).toEqual({ m: '101', a: '20221' });
    expect(unpackHint(packHint(small))).toEqual(small);
    const large = { more: Array.from({ length: 1000 }, (_, i) => i % 3 !== 0), ahead: [999, 0, 36, 500] };
    expect(packHint(large).a).toHaveLength(8);
    expect(unpackHint(packHint(large))).toEqual(large);
  });

  it('are dropped when they do not parse, rather than read wrong', () => {
    for (const bad of [
      undefined,
      null,
      'm',
      { m: '', a: '' },
      { m: '102', a: '0' },
      { m: '101', a: '3' }, // no shard 3 in a group of 3
      { m: '101', a: 'Z' },
      { m: '1'.repeat(40), a: '123' }, // two digits a shard: odd length
      { m: '11', a: '0'.repeat(MAX_AHEAD + 1) },
      { m: 101, a: '0' },
    ]) {
      expect(unpackHint(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});
