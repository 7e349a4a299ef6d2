import type { ProxiedCall, ProxyAction } from '../support/dynamo-proxy';
import { seededRandom } from '../../devtools/random';

/** Seeded, so a failing fault run can be replayed by its seed. */
export { seededRandom };

export interface FaultRates {
  /** Share of calls answered with a throttling error. */
  readonly throttle: number;
  /** Share of calls that fail: a 500, a 503, a dropped connection, or an answer lost after the engine did the work. */
  readonly fail: number;
  /** Share of Query calls (of those not faulted) cut short with a LastEvaluatedKey, as DynamoDB does at 1 MB. */
  readonly shortQuery: number;
  /** Added latency per call: uniform in [0, maxDelayMs]. */
  readonly maxDelayMs: number;
}

export interface FaultCounts {
  throttled: number;
  failed: number;
  short: number;
  forwarded: number;
}

const DATA_PLANE = new Set(['Query', 'BatchWriteItem', 'PutItem', 'GetItem', 'DeleteItem', 'Scan']);
const THROTTLES = [
  'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  'com.amazon.coral.availability#ThrottlingException',
  'com.amazonaws.dynamodb.v20120810#RequestLimitExceeded',
];
/** Attributes of a GSI query's LastEvaluatedKey: the table key and the index key. */
const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk'];

type AttributeMap = Record<string, unknown>;

/**
 * A `decide` function for the DynamoDB proxy that injects faults into data-plane
 * calls with the given rates, drawn from a seeded PRNG. `enabled()` lets a test set
 * up its table without faults. Every decision is counted in `counts`.
 */
export function faultInjector(seed: number, rates: FaultRates, enabled: () => boolean = () => true) {
  const random = seededRandom(seed);
  const counts: FaultCounts = { throttled: 0, failed: 0, short: 0, forwarded: 0 };
  const decide = (call: ProxiedCall): ProxyAction => {
    if (!enabled() || !DATA_PLANE.has(call.operation)) return { kind: 'forward' };
    const delayMs = Math.floor(random() * (rates.maxDelayMs + 1));
    const roll = random();
    if (roll < rates.throttle) {
      counts.throttled++;
      const type = THROTTLES[Math.floor(random() * THROTTLES.length)]!;
      return { kind: 'respond', status: 400, body: { __type: type, message: 'injected throttle' }, delayMs };
    }
    if (roll < rates.throttle + rates.fail) {
      counts.failed++;
      const how = random();
      if (how < 0.35)
        return {
          kind: 'respond',
          status: 500,
          body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'injected' },
          delayMs,
        };
      if (how < 0.55)
        return {
          kind: 'respond',
          status: 503,
          body: { __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable', message: 'injected' },
          delayMs,
        };
      if (how < 0.8) return { kind: 'drop', delayMs };
      return { kind: 'forward', dropAnswer: true, delayMs };
    }
    if (call.operation === 'Query' && random() < rates.shortQuery) {
      counts.short++;
      return { kind: 'forward', delayMs, mapResponse: shortenQuery };
    }
    counts.forwarded++;
    return { kind: 'forward', delayMs };
  };
  return { decide, counts };
}

/** Keeps the first half of a Query's items and says where to resume, as a 1 MB cut would. */
function shortenQuery(response: Record<string, unknown>): Record<string, unknown> {
  const items = (response.Items as AttributeMap[] | undefined) ?? [];
  if (items.length < 2) return response;
  const kept = items.slice(0, Math.ceil(items.length / 2));
  const last = kept[kept.length - 1]!;
  const lastEvaluatedKey = Object.fromEntries(
    KEY_ATTRIBUTES.filter((name) => name in last).map((name) => [name, last[name]]),
  );
  return {
    ...response,
    Items: kept,
    Count: kept.length,
    ScannedCount: kept.length,
    LastEvaluatedKey: lastEvaluatedKey,
  };
}
