export interface HedgedAnswer<T> {
  readonly value: T;
  /** A second, identical request was sent. */
  readonly hedged: boolean;
  readonly hedgeWon: boolean;
}

/**
 * Sends a read, and again if the first has not answered after `delayMs` and `trySpend` grants a token
 * (HedgePolicy). The first answer wins; the other is drained, not aborted: HTTP/1.1 cannot cancel a request
 * in flight, so aborting it would destroy its connection (on DynamoDB, a new TLS handshake for the next
 * query). Only `parent` aborting aborts what is still out. A failure waits for a request still out; one
 * before any hedge (a throttle, above all) is returned as it is, so its retry backs off. Only for reads: a
 * write sent twice could land twice.
 */
export function hedgedSend<T>(
  send: (signal: AbortSignal) => Promise<T>,
  parent: AbortSignal | undefined,
  delayMs: number | undefined,
  trySpend: () => boolean,
): Promise<HedgedAnswer<T>> {
  return new Promise((resolve, reject) => {
    const controllers: AbortController[] = [];
    let settled = false;
    let failures = 0;
    let ended = 0;
    let firstError: unknown;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abortAll = () => {
      for (const controller of controllers) controller.abort(parent?.reason);
    };
    // Until every request sent has ended: a drained loser is still the page's to abort.
    const end = () => {
      if (++ended === controllers.length && settled) parent?.removeEventListener('abort', abortAll);
    };
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      if (ended === controllers.length) parent?.removeEventListener('abort', abortAll);
    };
    const launch = (isHedge: boolean) => {
      const controller = new AbortController();
      controllers.push(controller);
      if (parent?.aborted) controller.abort(parent.reason);
      send(controller.signal).then(
        (value) => {
          end();
          if (settled) return;
          settle();
          resolve({ value, hedged: controllers.length > 1, hedgeWon: isHedge });
        },
        (error: unknown) => {
          end();
          if (settled) return;
          if (failures++ === 0) firstError = error;
          if (failures < controllers.length) return;
          settle();
          reject(firstError);
        },
      );
    };
    parent?.addEventListener('abort', abortAll, { once: true });
    launch(false);
    if (delayMs !== undefined) {
      timer = setTimeout(() => {
        if (!settled && trySpend()) launch(true);
      }, delayMs);
    }
  });
}
