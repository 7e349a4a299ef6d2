import type { Collection } from '../core/collection';
import type { CallContext } from '../store/retry';
import type { Store } from '../store/store';

/** What the HTTP app is built from; each runtime supplies its own. */
export interface AppDeps {
  readonly collections: readonly Collection[];
  readonly store: Store;
  /** Signs cursors; cursors from another secret are rejected. */
  readonly cursorSecret: string;
  /** Deadline for one request's DynamoDB work. */
  readonly requestTimeoutMs: number;
  /** Source of randomness for shard spreading (tests pin it). */
  readonly random?: () => number;
}

export interface AppEnv {
  Variables: {
    /** The request's deadline and abort signal, for every DynamoDB call it makes. */
    call: CallContext;
  };
}
