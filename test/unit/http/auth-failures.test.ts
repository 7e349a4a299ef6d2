import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthFailures } from '../../../src/http/middleware/auth-failures';
import { TokenBuckets } from '../../../src/http/middleware/rate-limit';

/** The clock stands still unless a test moves it: buckets refill by Date.now(). */
beforeEach(() => vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

describe('failed authentications, limited per credential and address', () => {
  it('limits one repeated credential on its own, and new credentials by their address', () => {
    const failures = new AuthFailures(3);
    expect([1, 2, 3, 4].map(() => failures.take('10.0.0.1', 'stale'))).toEqual([0, 0, 0, 1]);
    // The same address, other credentials: the repeats spent one new-credential token of three.
    expect(['a', 'b', 'c'].map((credential) => failures.take('10.0.0.1', credential))).toEqual([0, 0, 1]);
    // Another address is a budget of its own.
    expect(failures.take('10.0.0.2', 'stale')).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(failures.take('10.0.0.1', 'stale')).toBe(0);
    expect(failures.take('10.0.0.1', 'd')).toBe(0);
  });

  it('admits a valid key unless its address is guessing and the key never passed from there', () => {
    const failures = new AuthFailures(3, 2);
    expect(failures.admit('10.0.0.1', 'key#1')).toBe(0); // passed once: vouched for at this address
    for (const guess of ['a', 'b', 'c', 'd']) failures.take('10.0.0.1', guess);
    expect(failures.admit('10.0.0.1', 'key#1')).toBe(0);
    expect(failures.admit('10.0.0.1', 'key#2')).toBeGreaterThanOrEqual(1); // a guess's answer, not a 200
    expect(failures.admit('10.0.0.2', 'key#2')).toBe(0); // elsewhere nobody guesses
    // Bounded: a third pair forgets the least recently used one (10.0.0.1's key#1 was used before 10.0.0.2's).
    expect(failures.admit('10.0.0.3', 'key#3')).toBe(0);
    expect(failures.admit('10.0.0.1', 'key#1')).toBeGreaterThanOrEqual(1);
    vi.advanceTimersByTime(1000);
    expect(failures.admit('10.0.0.1', 'key#2')).toBe(0); // the guessing budget refilled
  });

  it('keeps at most its capacity through a flood of new credentials, and answers 429 while all are in debt', () => {
    const failures = new AuthFailures(2, 100);
    const waits: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      waits.push(failures.take(`10.0.${i % 250}.1`, `guess-${i}`));
      expect(failures.size).toBeLessThanOrEqual(200);
    }
    // 250 addresses × 2 new credentials each would be 500 401s: the first 100 got a bucket, the rest waits.
    expect(waits.filter((wait) => wait === 0)).toHaveLength(100);
    expect(waits.slice(100).every((wait) => wait >= 1)).toBe(true);
    // A second on, the oldest buckets are full again and give way: new failures are counted (401) again.
    vi.advanceTimersByTime(1000);
    expect(failures.take('10.9.9.9', 'late-guess')).toBe(0);
    expect(failures.size).toBeLessThanOrEqual(200);
  });
});

describe('TokenBuckets at capacity', () => {
  it('never forgets a bucket in debt to make room, and forgets a full one', () => {
    const buckets = new TokenBuckets(1, 2);
    expect(buckets.spend('a')).toBe(true);
    vi.advanceTimersByTime(600);
    expect(buckets.spend('b')).toBe(true);
    expect(buckets.spend('c')).toBe(false);
    expect(buckets.size).toBe(2);
    expect(buckets.waitFor('a')).toBe(1);
    vi.advanceTimersByTime(400);
    // 'a' is full again: it gives way to 'c'; 'b' (still in debt) is kept.
    expect(buckets.spend('c')).toBe(true);
    expect([buckets.has('a'), buckets.has('b'), buckets.has('c')]).toEqual([false, true, true]);
    expect(buckets.waitFor('b')).toBe(1);
  });
});
