import { describe, expect, it } from 'vitest';
import { refused, ShardlineError } from '../../../src/core/errors';
import { migrationRefs, initialPointer, startMigration } from '../../../src/core/shard-map';
import { namedCollection } from '../../../src/cli/command-line';
import { exitCodeOf } from '../../../src/reshard/run-reshard';
import { stopped, stoppedHoldingLease } from '../../../src/reshard/steps';

describe("a reshard's end, told by its error's code", () => {
  it('exits 130 stopped, 3 refused (nothing changed), 1 for anything else', () => {
    expect(exitCodeOf(stopped('stopped between two steps'))).toBe(130);
    expect(exitCodeOf(refused('no reshard is under way: nothing to abort'))).toBe(3);
    expect(exitCodeOf(new ShardlineError('conflict', 'the pointer was changed by another run'))).toBe(1);
    expect(exitCodeOf(new ShardlineError('unavailable', 'DynamoDB did not complete a scan'))).toBe(1);
    expect(exitCodeOf(new Error('boom'))).toBe(1);
  });

  it('releases the lease of a stop once: a stop that released it says so', () => {
    expect(stoppedHoldingLease(stopped('stopped in phase backfill'))).toBe(true);
    expect(stoppedHoldingLease(stopped('stopped in phase backfill; the lease is released', true))).toBe(false);
    expect(stoppedHoldingLease(refused('no'))).toBe(false);
  });

  it('refuses a migration the pointer does not allow, and a collection the config lacks', () => {
    const pointer = initialPointer(0);
    expect(() => migrationRefs(pointer)).toThrow(expect.objectContaining({ code: 'refused' }));
    const migrating = startMigration(pointer, 2, 0, 0);
    expect(() => startMigration(migrating, 3, 0, 0)).toThrow(expect.objectContaining({ code: 'refused' }));
    expect(() => namedCollection([{ name: 'albums' }], 'songs')).toThrow(
      expect.objectContaining({ code: 'refused', message: 'no collection "songs" in the config (it has: albums)' }),
    );
  });
});
