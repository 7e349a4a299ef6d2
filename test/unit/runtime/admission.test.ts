import { describe, expect, it } from 'vitest';
import { AdmissionLimit, type AdmissionOptions } from '../../../src/core/admission-limit';
import { admitted } from '../../../src/runtime/admission';

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

describe('admitted fetch', () => {
  it('sheds a 21-shard listing past the limit with a paced 503 overloaded and Retry-After; probes pass', async () => {
    let release: () => void = () => {};
    const pending = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetch = admitted(
      async () => {
        await pending;
        return new Response('ok');
      },
      (collection) => new Map([['events', 21]]).get(collection),
      20,
      new AdmissionLimit(options),
    );
    const first = fetch(new Request('http://x/collections/events/items'));
    const asked = performance.now();
    const shed = await fetch(new Request('http://x/collections/events/items'));
    // Held for the pause, so a client that asks again at once cannot spin the server on refusals.
    expect(performance.now() - asked).toBeGreaterThanOrEqual(19);
    expect(shed.status).toBe(503);
    expect(Number(shed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await shed.json()).toMatchObject({ error: { code: 'overloaded' } });
    const probe = fetch(new Request('http://x/healthz'));
    release();
    expect((await probe).status).toBe(200);
    expect((await first).status).toBe(200);
  });
});
