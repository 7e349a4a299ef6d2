/** How `waitUntilReady` polls and what it says when it gives up. */
export interface WaitOptions {
  /** Give up after this long (default 60 s). */
  readonly timeoutMs?: number;
  /** Pause between probes (default 150 ms). */
  readonly intervalMs?: number;
  /**
   * Checked before every probe: a message when waiting is pointless (the process that
   * should answer has exited), so the caller fails at once instead of at the timeout.
   */
  readonly gaveUp?: () => string | undefined;
  /** The timeout's message; read when it fires, so it can carry the output so far. */
  readonly timedOut: () => string;
}

/**
 * Polls `ready` until it resolves true. A probe that throws counts as "not yet" (a
 * server that is not listening refuses the connection). Rejects with `gaveUp`'s
 * message as soon as it has one, or with `timedOut`'s after `timeoutMs`.
 */
export async function waitUntilReady(ready: () => boolean | Promise<boolean>, options: WaitOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = Date.now();
  for (;;) {
    const reason = options.gaveUp?.();
    if (reason !== undefined) throw new Error(reason);
    try {
      if (await ready()) return;
    } catch {
      // not up yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(options.timedOut());
    await new Promise((resolveWait) => setTimeout(resolveWait, options.intervalMs ?? 150));
  }
}
