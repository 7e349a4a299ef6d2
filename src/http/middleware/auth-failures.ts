import { MAX_BUCKETS, TokenBuckets } from './rate-limit';

/**
 * Failed authentications, limited so that nobody's wrong keys cost anyone else's valid one anything: bearerAuth asks
 * here only after a key failed to match, so a valid key is never refused by this limit, whatever its address sent.
 *
 * Two budgets, both `perSecond` a second in bursts of `perSecond`:
 * - per presented credential and address: one client repeating a wrong (stale, mistyped) key gets 429s for that
 *   key alone; another client behind the same proxy still gets its own 401s.
 * - per address, for credentials it has not failed with before: a guesser trying a new key each time is limited
 *   by its address however many keys it tries.
 *
 * Memory: each budget keeps at most `capacity` buckets (TokenBuckets): a credential is kept as its digest, never
 * its text. When a flood fills them with buckets still in debt, a failure that needs a new bucket is a 429 at once
 * (never a forgotten debt); a bucket is full, and can give way, at most a second after its last failure.
 */
export class AuthFailures {
  readonly #byCredential: TokenBuckets;
  readonly #newCredentialsByAddress: TokenBuckets;

  constructor(perSecond: number, capacity = MAX_BUCKETS) {
    this.#byCredential = new TokenBuckets(perSecond, capacity);
    this.#newCredentialsByAddress = new TokenBuckets(perSecond, capacity);
  }

  /** Buckets kept now, both budgets together (at most twice `capacity`). */
  get size(): number {
    return this.#byCredential.size + this.#newCredentialsByAddress.size;
  }

  /**
   * Counts a failed authentication of `credential` (its digest, or '' for none) from `address`. Returns 0 when it
   * is within both budgets (answer 401), else the seconds to wait (answer 429; the failure was not counted).
   */
  take(address: string, credential: string): number {
    const name = `${address} ${credential}`;
    const known = this.#byCredential.has(name);
    const wait = Math.max(this.#byCredential.waitFor(name), known ? 0 : this.#newCredentialsByAddress.waitFor(address));
    if (wait > 0) return wait;
    if (!known && !this.#newCredentialsByAddress.spend(address)) return 1;
    return this.#byCredential.spend(name) ? 0 : 1;
  }
}
