import { ShardlineError } from '../core/errors';

const RECREATE_EVERY_MS = 5000;

/**
 * What a router does when the table holding its maps is gone: answers 503 `table_missing` naming
 * the tables and, where the runtime creates tables, creates them again in the background (once at a
 * time, at most every 5 s; never awaited by a request).
 */
export class TableRecreation {
  private recreating: Promise<void> | undefined;
  private recreatedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly tables: readonly string[],
    private readonly recreate: (() => Promise<void>) | undefined,
    private readonly now: () => number,
    private readonly log: ((message: string) => void) | undefined,
  ) {}

  /** The 503 for a missing table; a recreation started when one is due. */
  missing(): ShardlineError {
    const { tables, recreate } = this;
    const now = this.now();
    if (recreate && !this.recreating && now - this.recreatedAt >= RECREATE_EVERY_MS) {
      this.recreatedAt = now;
      this.log?.(`shardline: table ${tables.join(', ')} is gone; creating it and its shard maps again`);
      this.recreating = recreate()
        .catch((error: unknown) => this.log?.(`shardline: recreating ${tables}: ${(error as Error).message}`))
        .finally(() => {
          this.recreating = undefined;
        });
    }
    return new ShardlineError('table_missing', `table ${tables.map((t) => JSON.stringify(t)).join(', ')} is missing`, {
      tables: [...tables],
      retryable: true,
    });
  }
}
