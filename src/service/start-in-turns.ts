/**
 * Starts one call per item, each in a turn of the event loop of its own, and resolves
 * with their results in order; rejects with the first failure, after which nothing
 * more is started.
 *
 * Why not all in one turn: the SDK builds and signs a request over many microtasks,
 * so calls started together advance in lockstep and none leaves before all are built
 * (a fifth of a millisecond of CPU each: 4 ms for a wave of 21 shards). A turn apart,
 * each request is on the wire as soon as it is built, its round trip overlaps the
 * building of the next, and the answers come back spread out instead of all at once.
 */
export async function startInTurns<T, R>(items: readonly T[], start: (item: T) => Promise<R>): Promise<R[]> {
  const started: Promise<R>[] = [];
  let failed = false;
  for (const item of items) {
    if (started.length > 0) {
      await nextTurn();
      if (failed) break;
    }
    const call = start(item);
    // Also marks the rejection handled while later calls are still being started.
    call.catch(() => (failed = true));
    started.push(call);
  }
  return Promise.all(started);
}

/** Resolves after the pending I/O callbacks and microtasks have run (setImmediate where there is one). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}
