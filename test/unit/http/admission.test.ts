import { describe, expect, it } from 'vitest';
import { AdmissionLimit, type AdmissionOptions } from '../../../src/core/admission-limit';

const options: AdmissionOptions = { initialLimit: 4, minLimit: 2, maxLimit: 6, latencyTargetMs: 100, backoff: 0.5 };

describe('AdmissionLimit', () => {
  it('admits up to the limit by weight and refuses past it', () => {
    const limit = new AdmissionLimit(options);
    expect(limit.tryAcquire(3)).toBeDefined();
    const one = limit.tryAcquire(1)!;
    expect(limit.tryAcquire(1)).toBeUndefined();
    limit.release(one, 10);
    expect(limit.inFlight).toBe(3);
    expect(limit.tryAcquire(1)).toBeDefined();
  });

  it('admits work heavier than the limit only when idle, so it never starves', () => {
    const limit = new AdmissionLimit(options);
    const small = limit.tryAcquire(1)!;
    expect(limit.tryAcquire(21)).toBeUndefined();
    limit.release(small, 10);
    expect(limit.tryAcquire(21)).toBeDefined();
    expect(limit.tryAcquire(1)).toBeUndefined();
  });

  it('grows by one per limit of fast answers, up to the maximum', () => {
    const limit = new AdmissionLimit(options);
    const fast = () => limit.release(limit.tryAcquire(1)!, 10);
    for (let i = 0; i < 4; i++) fast();
    expect(limit.limit).toBe(5);
    for (let i = 0; i < 100; i++) fast();
    expect(limit.limit).toBe(6);
  });

  it('backs off on a slow answer, down to the minimum', () => {
    const limit = new AdmissionLimit(options);
    limit.release(limit.tryAcquire(1)!, 500);
    expect(limit.limit).toBe(2);
    limit.release(limit.tryAcquire(1)!, 500);
    expect(limit.limit).toBe(2);
  });

  it('cuts once for a burst of slow answers to one overload, not once per answer', () => {
    const limit = new AdmissionLimit({ ...options, initialLimit: 6, backoff: 0.9 });
    const burst = [1, 2, 3, 4, 5, 6].map(() => limit.tryAcquire(1)!);
    for (const admission of burst) limit.release(admission, 500);
    expect(limit.limit).toBe(5); // floor(6 × 0.9), once
    // Work admitted after that cut that is slow too cuts again.
    limit.release(limit.tryAcquire(1)!, 500);
    expect(limit.limit).toBe(4);
  });

  it('refuses bad bounds', () => {
    expect(() => new AdmissionLimit({ ...options, minLimit: 0 })).toThrow(RangeError);
    expect(() => new AdmissionLimit({ ...options, backoff: 1 })).toThrow(RangeError);
  });
});
