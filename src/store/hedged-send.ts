export interface HedgedAnswer<T> {
  readonly value: T;
  /** A second, identical request was sent. */
  readonly hedged: boolean;
  readonly hedgeWon: boolean;
}

/**
 * Sends a read, and again if the first has not answered after `delayMs` and `trySpend` grants a
 * token (the query's group's: HedgePolicy). The first answer wins; the other is aborted and
 * dropped, so nothing is counted twice. A failure waits for a request still out; one before any
 * hedge (a throttle, above all) is returned as it is, so its retry backs off instead. Only for
 * reads: a write sent twice could land twice.
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
    let firstError: unknown;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abortAll = () => {
      for (const controller of controllers) controller.abort(parent?.reason);
    };
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      parent?.removeEventListener('abort', abortAll);
    };
    const launch = (isHedge: boolean) => {
      const controller = new AbortController();
      controllers.push(controller);
      if (parent?.aborted) controller.abort(parent.reason);
      send(controller.signal).then(
        (value) => {
          if (settled) return;
          settle();
          for (const other of controllers) if (other !== controller) other.abort();
          resolve({ value, hedged: controllers.length > 1, hedgeWon: isHedge });
        },
        (error: unknown) => {
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
