import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HedgePolicy } from '../../../src/core/hedge-policy';
import { hedgedSend } from '../../../src/store/hedged-send';

/** A group's spending of a policy with tokens: half a token a query, and twenty queries already sent. */
function eager(): () => boolean {
  const policy = new HedgePolicy({ ratio: 0.5, burst: 10, window: 8, minSamples: 4 });
  for (let query = 0; query < 20; query++) policy.delayFor('earlier');
  return () => policy.trySpend('earlier');
}

/** A send whose answers the test gives by hand; each call's signal is kept to see it aborted. */
function manualSend() {
  const calls: { signal: AbortSignal; answer: (value: string) => void; fail: (error: Error) => void }[] = [];
  const send = (signal: AbortSignal) =>
    new Promise<string>((answer, fail) => {
      calls.push({ signal, answer, fail });
      signal.addEventListener('abort', () => fail(new Error('aborted')));
    });
  return { calls, send };
}

/** Moves the fake clock on: the hedge timer fires exactly when its delay is up, never by luck of the machine. */
const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('HedgePolicy', () => {
  it('names no delay before a group has history, then its recent p95', () => {
    const policy = new HedgePolicy({ ratio: 0.5, burst: 10, window: 8, minSamples: 4 });
    for (const ms of [10, 20, 30]) policy.answered('albums', ms);
    expect(policy.delayFor('albums')).toBeUndefined();
    policy.answered('albums', 40);
    expect(policy.delayFor('albums')).toBe(40);
    // Groups keep their own history.
    expect(policy.delayFor('tracks')).toBeUndefined();
    // The window keeps the latest samples only: a slower past is forgotten.
    for (let i = 0; i < 32; i++) policy.answered('albums', 5);
    expect(policy.delayFor('albums')).toBe(5);
  });

  it('never lets hedges pass its ratio of the queries sent so far, from the first query on', () => {
    const policy = new HedgePolicy({ ratio: 0.05, burst: 50, window: 8, minSamples: 1 });
    let hedges = 0;
    let over = 0;
    for (let query = 1; query <= 10_000; query++) {
      policy.delayFor('albums');
      if (policy.trySpend('albums')) hedges++;
      if (hedges > 0.05 * query + 1e-9) over++;
    }
    expect(over).toBe(0);
    expect(hedges).toBe(0.05 * 10_000);
  });

  it('saves tokens in a quiet spell up to its burst, for slow shards that come together', () => {
    const policy = new HedgePolicy({ ratio: 0.05, burst: 50, window: 8, minSamples: 1 });
    for (let query = 0; query < 4000; query++) policy.delayFor('albums');
    let spent = 0;
    while (policy.trySpend('albums')) spent++;
    expect(spent).toBe(50);
  });

  it("keeps each group's tokens: a group's hedges stay within its own queries' share", () => {
    const policy = new HedgePolicy({ ratio: 0.05, burst: 50, window: 8, minSamples: 1 });
    // A quiet collection's queries save tokens that a slow one may not spend.
    for (let query = 0; query < 2000; query++) policy.delayFor('quiet');
    expect(policy.trySpend('slow')).toBe(false);
    let hedges = 0;
    for (let query = 1; query <= 400; query++) {
      policy.delayFor('slow');
      if (policy.trySpend('slow')) hedges++;
      expect(hedges).toBeLessThanOrEqual(0.05 * query + 1e-9);
    }
    expect(hedges).toBe(20);
    // The quiet one's purse is still whole.
    let spent = 0;
    while (policy.trySpend('quiet')) spent++;
    expect(spent).toBe(50);
  });
});

describe('hedgedSend', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends once when the first answer comes before the delay', async () => {
    const { calls, send } = manualSend();
    const answer = hedgedSend(send, undefined, 20, eager());
    calls[0]!.answer('first');
    expect(await answer).toEqual({ value: 'first', hedged: false, hedgeWon: false });
    await tick(40);
    expect(calls).toHaveLength(1);
  });

  it('sends again after the delay; the first answer wins and the other is drained, not aborted', async () => {
    const { calls, send } = manualSend();
    const answer = hedgedSend(send, undefined, 5, eager());
    await tick(4);
    expect(calls).toHaveLength(1);
    await tick(1);
    expect(calls).toHaveLength(2);
    calls[1]!.answer('second');
    expect(await answer).toEqual({ value: 'second', hedged: true, hedgeWon: true });
    // The loser keeps its connection: it is left to answer, and its answer changes nothing.
    expect(calls[0]!.signal.aborted).toBe(false);
    calls[0]!.answer('late');
    await tick(0);
    expect(await answer).toEqual({ value: 'second', hedged: true, hedgeWon: true });
  });

  it("drops a loser's failure, and aborts a loser still out when the page is given up", async () => {
    const { calls, send } = manualSend();
    const parent = new AbortController();
    const answer = hedgedSend(send, parent.signal, 5, eager());
    await tick(5);
    calls[0]!.answer('first');
    expect((await answer).value).toBe('first');
    expect(calls[1]!.signal.aborted).toBe(false);
    parent.abort();
    expect(calls[1]!.signal.aborted).toBe(true);

    const again = manualSend();
    const failing = hedgedSend(again.send, undefined, 5, eager());
    await tick(5);
    again.calls[1]!.answer('hedge');
    again.calls[0]!.fail(new Error('reset after the win'));
    expect(await failing).toEqual({ value: 'hedge', hedged: true, hedgeWon: true });
  });

  it('never hedges a call that failed first (a throttle): the error goes to the retry', async () => {
    const { calls, send } = manualSend();
    const answer = hedgedSend(send, undefined, 5, eager());
    calls[0]!.fail(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    await expect(answer).rejects.toThrow('throttled');
    await tick(30);
    expect(calls).toHaveLength(1);
  });

  it('waits for the other request when one fails, and fails only when both have', async () => {
    const { calls, send } = manualSend();
    const answer = hedgedSend(send, undefined, 5, eager());
    await tick(30);
    calls[0]!.fail(new Error('reset'));
    calls[1]!.answer('second');
    expect((await answer).value).toBe('second');

    const again = manualSend();
    const failing = hedgedSend(again.send, undefined, 5, eager());
    await tick(30);
    again.calls[1]!.fail(new Error('hedge failed'));
    again.calls[0]!.fail(new Error('first failed'));
    await expect(failing).rejects.toThrow('hedge failed');
  });

  it('sends no hedge without a token, and aborts both when the request is aborted', async () => {
    const spent = new HedgePolicy({ ratio: 0.01, burst: 0, window: 8, minSamples: 1 });
    const { calls, send } = manualSend();
    const parent = new AbortController();
    const answer = hedgedSend(send, parent.signal, 5, () => spent.trySpend('albums'));
    await tick(30);
    expect(calls).toHaveLength(1);
    parent.abort();
    await expect(answer).rejects.toThrow('aborted');
    expect(calls[0]!.signal.aborted).toBe(true);
  });
});
