import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../devtools/random';
import { autopilotStep, type StepRecord } from '../../src/autopilot/step';
import { compareKeys } from '../../src/core/collation';
import type { CollectionSpec } from '../../src/core/collection';
import { type OpenEnvironment, openEnvironment } from '../../src/runtime/open-environment';
import { listing } from '../follow/support';
import { autopilotHarness, loadRecordsEnv, titlesWithAutopilot } from '../support/autopilot';
import { fakeDate, type MovedDate } from '../support/clock';
import { sleep } from './traffic';

/**
 * Minutes of a real minute's length, none waited out: the test moves the clock on a minute at a
 * time. A reshard's settle waits (the routers' map TTL and deadline, about 2 s a phase, on real
 * timers) take ten seconds or so of the minute of the step that starts it, as they would in production.
 */
const MINUTE_MS = 60_000;
const WINDOW_MINUTES = 3;
const WINDOWS = 10;
const CONFIG = titlesWithAutopilot('books', WINDOW_MINUTES);
const FAST = loadRecordsEnv(MINUTE_MS);
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Where the hotspot is, window after window: each letter in another range of the first map. */
const HOT_LETTERS = 'bgkptx';
/** Each minute's writes, all to the window's hot letter: 10 batches of 10 titles. */
const BATCHES_A_MINUTE = 10;

/**
 * The autopilot's steps, one a minute as `npm run autopilot` takes them (the same autopilotStep,
 * in-process), over a router that writes its load records (one service in-process, on DynamoDB
 * Local), while the hotspot moves to another range every window. The clock is the process's own
 * Date, moved by the test: the router's minutes, the steps' windows and the reshards' phase stamps
 * (what the next step's "a whole window under the new map" reads) are on the one clock.
 */
describe('the autopilot under a hotspot that moves', () => {
  const random = seededRandom(39);
  const word = () => Array.from({ length: 6 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  let date: MovedDate;
  let opened: OpenEnvironment;
  let books: CollectionSpec;
  const ledger: { pk: string; title: string }[] = [];

  // Installed before the service is built: what it builds reads the moved Date from the start.
  beforeAll(() => {
    date = fakeDate();
  });
  const harness = autopilotHarness('moving-hotspot', CONFIG, FAST, { now: () => Date.now() });
  afterAll(async () => {
    await opened?.close();
    date?.restore();
  });

  /** Writes `count` `title()` titles to the books. */
  const writeBatch = async (title: () => string, count: number) => {
    const items = Array.from({ length: count }, (_, i) => ({
      pk: `w${ledger.length + i}`,
      sk: 'item',
      title: title(),
    }));
    ledger.push(...items);
    const response = await harness.service.app.request('/collections/books/items/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  /** One step, while a trickle of writes goes on (through every phase of a reshard it runs). */
  const stepWhileWriting = async (title: () => string): Promise<StepRecord> => {
    let stepping = true;
    const trickle = (async () => {
      while (stepping) {
        await writeBatch(title, 2);
        await sleep(100);
      }
    })();
    try {
      return await autopilotStep(opened, books, books.autopilot!, { dryRun: false });
    } finally {
      stepping = false;
      await trickle;
    }
  };

  it('reshards at most twice in ten windows with cooldown 0, the bar held high while it moves', async () => {
    // The table as `npm run autopilot` opens it, from the same environment.
    opened = await openEnvironment(harness.env);
    books = opened.collections.find((collection) => collection.name === 'books')!;
    const steps: StepRecord[] = [];
    for (let window = 0; window < WINDOWS; window++) {
      const hot = () => `${HOT_LETTERS[window % HOT_LETTERS.length]}${word()}`;
      for (let minute = 0; minute < WINDOW_MINUTES; minute++) {
        for (let batch = 0; batch < BATCHES_A_MINUTE; batch++) await writeBatch(hot, 10);
        // The minute ends; its record is written, as the router's timer writes it; then the minute's step.
        date.nextMinute(MINUTE_MS);
        await harness.service.load!.flush();
        steps.push(await stepWhileWriting(hot));
      }
    }

    const summary = JSON.stringify(
      steps.map(({ at, action, reason, streak, reshard }) => ({ at, action, reason, streak, reshard })),
      null,
      1,
    );
    const reshards = steps.filter((step) => step.action === 'reshard');
    expect(reshards.length, summary).toBeGreaterThanOrEqual(1);
    expect(reshards.length, summary).toBeLessThanOrEqual(2);
    expect(reshards.map((step) => step.reshard?.code)).toEqual(reshards.map(() => 0));
    // The hotspot went on moving after them: the raised bar is what held the next reshards back.
    expect(steps.filter((step) => step.heldBack).length, summary).toBeGreaterThan(0);
    // Every step is kept, in order, with what its reshard did.
    const { decisions } = await harness.kept('books');
    expect(decisions.map(({ at, action }) => ({ at, action }))).toEqual(
      steps.map(({ at, action }) => ({ at, action })),
    );
    expect(decisions.filter((d) => d.reshard).map((d) => d.reshard?.code)).toEqual(reshards.map(() => 0));

    // Through both reshards and the writes during them: the listing holds every item written, once, in order.
    const expected = [...ledger].sort((x, y) => compareKeys(x.title, y.title) || compareKeys(x.pk, y.pk));
    const listed = await listing(harness.service.app, 'books');
    expect(listed.map((item) => item.pk)).toEqual(expected.map((item) => item.pk));
  });
});
