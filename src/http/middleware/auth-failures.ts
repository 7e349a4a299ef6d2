import { MAX_BUCKETS, TokenBuckets } from './rate-limit';

/**
 * Failed authentications, limited so that a guesser learns nothing faster than its budget allows, while a client's
 * valid key is not refused for someone else's wrong ones. Two budgets, both `perSecond` a second in bursts of
 * `perSecond`: per presented credential and address (a client repeating a stale key gets 429s for that key alone,
 * another behind the same proxy its own 401s), and per address for credentials it has not failed with before (a
 * guesser trying a new key each time is limited by its address). A valid key from an address whose new-credential
 * budget is spent passes only if it passed from there before (`admit`): any other gets a guess's 429, so the limit
 * still hides which guess was right. Credentials are kept as digests, in at most `capacity` buckets a budget
 * (TokenBuckets: a debt is never forgotten; when full of debts, a failure needing a new bucket is a 429 at once).
 */
export class AuthFailures {
  readonly #byCredential: TokenBuckets;
  readonly #newCredentialsByAddress: TokenBuckets;
  /** `address key-id` pairs that authenticated, oldest use first; at most `capacity`, the oldest forgotten first. */
  readonly #vouched = new Set<string>();
  readonly #capacity: number;

  constructor(perSecond: number, capacity = MAX_BUCKETS) {
    this.#byCredential = new TokenBuckets(perSecond, capacity);
    this.#newCredentialsByAddress = new TokenBuckets(perSecond, capacity);
    this.#capacity = capacity;
  }

  /** A valid key (`keyId`) from `address`: 0 to let it in, else the seconds to wait (answer 429, as a guess gets). */
  admit(address: string, keyId: string): number {
    const pair = `${address} ${keyId}`;
    const known = this.#vouched.delete(pair);
    const wait = known ? 0 : this.#newCredentialsByAddress.waitFor(address);
    if (wait > 0) return wait;
    this.#vouched.add(pair); // re-inserted: the set's order is the order of last use
    if (this.#vouched.size > this.#capacity) this.#vouched.delete(this.#vouched.values().next().value as string);
    return 0;
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
