import type cliProgress from 'cli-progress';
import { stderrBar } from './progress';
import type { MigrationProgress } from '../core/shard-map';
import { formatCount } from '../core/count-text';

export interface ReshardProgress {
  update(progress: MigrationProgress): void;
  /** Lifts the bar off the line so a log line can be written. */
  pause(): void;
  stop(): void;
}

/** A bar on a terminal; elsewhere a plain line every ten seconds, so a log of a long run still shows it moving. */
export function reshardProgress(
  enabled: boolean,
  write: (text: string) => void,
  { terminal = process.stderr.isTTY === true, everyMs = 10_000 } = {},
): ReshardProgress {
  if (!enabled) return { update() {}, pause() {}, stop() {} };
  if (!terminal) {
    // On a timer, not on pages: a slow pass (--rate, a throttled table) still shows it is alive.
    let latest: MigrationProgress | undefined;
    const timer = setInterval(() => {
      if (latest) write(`reshard: ${describeCounts(latest)}\n`);
    }, everyMs);
    timer.unref?.();
    return {
      update(progress) {
        latest = progress;
      },
      pause() {},
      stop() {
        clearInterval(timer);
      },
    };
  }
  let bar: cliProgress.SingleBar | undefined;
  let pass = '';
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    update(progress) {
      if (!bar || pass !== progress.pass) {
        bar?.stop();
        pass = progress.pass;
        bar = stderrBar(
          `${progress.pass.padEnd(8)} {bar} {value}/{total} segments | {counts} | ETA {eta_formatted}`,
          5,
        );
        bar.start(progress.segments, progress.segmentsDone, { counts: '' });
      }
      bar.update(progress.segmentsDone, { counts: describeCounts(progress) });
    },
    pause: stop,
    stop,
  };
}

export function describeCounts(progress: MigrationProgress): string {
  const seconds = Math.max(0.001, (Date.now() - progress.startedAt) / 1000);
  return (
    `${progress.pass}: ${formatCount(progress.scanned)} scanned, ${formatCount(progress.members)} members, ` +
    `${formatCount(progress.moved)} moved, ${formatCount(progress.scanned / seconds)} items/s`
  );
}
