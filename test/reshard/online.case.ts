import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { boundariesCli } from '../../src/cli/boundaries-cli';
import type { EngineEndpoints } from '../support/global-setup';
import { checkPlacement } from './placement';
import { runReshard, sharedEnv, startRouter, type Router } from './processes';
import { deleteItem, fullListing, Ledger, writeBatch, writeItem, type ListingRecord } from './workload';

const COLLECTIONS = ['albums', 'albums-hash', 'albums-random'] as const;
const SEEDED = 300;

/** Titles with ties, a popular value, case and width variants, and code points JavaScript sorts wrongly. */
function title(n: number): string {
  const words = [
    'Greatest Hits',
    'abbey road',
    'Ägypten',
    'zebra',
    'Ｌｅａｖｉｎｇ',
    '\u{1F3B5} song',
    '\uE000 private',
    'émile',
  ];
  return n % 7 === 0 ? 'Greatest Hits' : `${words[n % words.length]} ${words[(n * 5 + 3) % words.length]} ${n % 97}`;
}

interface Phased extends ListingRecord {
  readonly phase: string;
}

/**
 * docs/resharding.md's promise, tried the way it will be used: two router processes that are
 * never restarted, writers, deleters and readers paging whole listings (each page from
 * the other router) while three collections change maps at once: range → range to
 * boundaries cut from a live scan, hash 21 → 32 with the reshard process killed in the
 * middle of its backfill and started again, and random → range. Every listing taken
 * meanwhile must be exact; at the end every item sits on its new map's shard, in the
 * index reads use, and the old index entries are gone.
 */
export function onlineReshardSuite(engine: keyof EngineEndpoints): void {
  describe(`online reshard on ${engine}`, () => {
    it('keeps every listing exact through three concurrent reshards, one killed mid-backfill', {
      timeout: 420_000,
    }, async () => {
      const env = sharedEnv(inject('engines')[engine], `t-${randomUUID()}`);
      const dir = mkdtempSync(join(tmpdir(), 'shardline-reshard-'));
      const routers: Router[] = [];
      try {
        routers.push(...(await Promise.all([startRouter(env), startRouter(env)])));
        const bases = routers.map((router) => router.base);
        const ledgers = new Map(COLLECTIONS.map((name) => [name, new Ledger(name)]));
        for (const ledger of ledgers.values()) {
          const items = Array.from({ length: SEEDED }, (_, n) => ({
            pk: `${ledger.collection}-s${n}`,
            title: title(n),
          }));
          await writeBatch(bases[0]!, ledger, items);
        }

        let stopping = false;
        const failures: string[] = [];
        let timeouts = 0;
        const listings: Phased[] = [];
        const phaseOf = async (collection: string) =>
          ((await (await fetch(`${bases[0]}/collections/${collection}`)).json()) as { map: { phase: string } }).map
            .phase;
        const loop = async (body: (round: number) => Promise<void>) => {
          for (let round = 0; !stopping; round++) {
            try {
              await body(round);
            } catch (error) {
              failures.push((error as Error).message);
            }
          }
        };
        const workload = [...ledgers.values()].flatMap((ledger) => [
          loop(async (n) => {
            await writeItem(bases[n % 2]!, ledger, `${ledger.collection}-w${n}`, title(n * 13 + 1));
            await sleep(30);
          }),
          loop(async (n) => {
            if (3 * n < SEEDED) await deleteItem(bases[(n + 1) % 2]!, ledger, `${ledger.collection}-s${3 * n}`);
            await sleep(100);
          }),
          loop(async (n) => {
            const phase = await phaseOf(ledger.collection);
            try {
              const listing = await fullListing(n % 2 ? bases : [...bases].reverse(), ledger, n % 3 === 0 ? 37 : 100);
              listings.push({ ...listing, phase });
            } catch (error) {
              // A page past its deadline on an overloaded machine fails whole (a 504, never a short page).
              if (!/answered 504/.test((error as Error).message)) throw error;
              timeouts++;
            }
          }),
        ]);

        // range → range: boundaries cut from a live scan of the collection, as an operator would.
        const boundaries = join(dir, 'albums.json');
        let report = '';
        const cut = await boundariesCli(['--collection', 'albums', '--shards', '12', '--out', boundaries], {
          stdout: () => {},
          stderr: (text) => (report += text),
          progress: false,
          env,
        });
        expect(cut, report).toBe(0);
        const range = runReshard(env, ['--collection', 'albums', '--boundaries', boundaries, '--yes']);
        const random = runReshard(env, [
          '--collection',
          'albums-random',
          '--shards',
          '8',
          '--strategy',
          'range',
          '--yes',
        ]);
        // hash 21 → 32, slowed down so that it can be killed in the middle of its backfill.
        const hashArgs = ['--collection', 'albums-hash', '--shards', '32', '--yes'];
        const first = runReshard(env, [...hashArgs, '--rate', '150']);
        await until(async () => {
          const response = await fetch(`${bases[1]}/collections/albums-hash`);
          const body = (await response.json()) as { map?: { phase: string; progress?: { scanned?: number } } };
          if (!body.map)
            failures.push(`GET /collections/albums-hash answered ${response.status}: ${JSON.stringify(body)}`);
          return body.map?.phase === 'backfill' && (body.map.progress?.scanned ?? 0) > 0;
        }, first);
        first.child.kill('SIGKILL');
        await first.done;
        const again = runReshard(env, hashArgs);
        const results = await withinOrReport(Promise.all([range.done, random.done, again.done]), 300_000, () =>
          [range, random, again].map((run) => run.output()).join('\n---\n'),
        );
        for (const result of results) expect(result.code, result.output).toBe(0);
        expect(again.output()).toMatch(/resuming the reshard to v2 in phase backfill/);

        // A little more traffic on the new maps, then a last listing of each, at rest.
        await sleep(1000);
        stopping = true;
        await Promise.all(workload);
        for (const ledger of ledgers.values())
          listings.push({ ...(await fullListing(bases, ledger, 100)), phase: 'after' });

        expect(failures).toEqual([]);
        expect(timeouts, `${timeouts} of ${listings.length + timeouts} listings timed out`).toBeLessThan(
          Math.max(3, listings.length / 10),
        );
        const wrong = listings.filter((listing) => listing.problems.length > 0);
        expect(wrong.map((l) => `${l.collection} (${l.phase}): ${l.problems.slice(0, 5).join('; ')}`)).toEqual([]);
        for (const name of COLLECTIONS) {
          const phases = new Set(listings.filter((l) => l.collection === name).map((l) => l.phase));
          // Listings ran while reads used the old map during the migration, and while they used the new one.
          const during = (list: string[]) => list.some((phase) => phases.has(phase));
          expect(during(['dual-write', 'backfill', 'verify']), `${name}: ${[...phases]}`).toBe(true);
          expect(during(['switch-reads', 'finalize']), `${name}: ${[...phases]}`).toBe(true);
        }
        for (const ledger of ledgers.values()) {
          expect(await checkPlacement(env, bases[0]!, ledger)).toEqual({ misplaced: [], missing: [], leftovers: [] });
        }
      } finally {
        await Promise.all(routers.map((router) => router.stop()));
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` until it holds; fails if `process` exits first. */
async function until(
  condition: () => Promise<boolean>,
  process: { done: Promise<unknown>; output(): string },
): Promise<void> {
  let exited = false;
  const started = Date.now();
  process.done.then(() => (exited = true));
  for (;;) {
    if (await condition()) return;
    if (exited) throw new Error(`the reshard ended before the condition held:\n${process.output()}`);
    if (Date.now() - started > 120_000)
      throw new Error(`the condition did not hold within 2 minutes:\n${process.output()}`);
    await sleep(100);
  }
}

/** `promise`, or a failure carrying `report()` if it takes longer than `ms`. */
async function withinOrReport<T>(promise: Promise<T>, ms: number, report: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${ms / 1000} s:\n${report()}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
