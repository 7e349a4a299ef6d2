import cliProgress from 'cli-progress';
import type { MigrationProgress } from '../core/shard-map';

export interface ReshardProgress {
  update(progress: MigrationProgress): void;
  /** Lifts the bar off the line so a log line can be written. */
  pause(): void;
  stop(): void;
}

/**
 * The reshard's progress: a bar on a terminal (pass, segments done, items scanned and
 * moved, rate, ETA by segments); elsewhere a plain line every ten seconds, so a log
 * of a long run still shows it moving.
 */
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
  return {
    update(progress) {
      if (!bar || pass !== progress.pass) {
        bar?.stop();
        pass = progress.pass;
        bar = new cliProgress.SingleBar(
          {
            stream: process.stderr,
            format: `${progress.pass.padEnd(8)} {bar} {value}/{total} segments | {counts} | ETA {eta_formatted}`,
            hideCursor: true,
            fps: 5,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(progress.segments, progress.segmentsDone, { counts: '' });
      }
      bar.update(progress.segmentsDone, { counts: describeCounts(progress) });
    },
    pause() {
      bar?.stop();
      bar = undefined;
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}

function describeCounts(progress: MigrationProgress): string {
  const seconds = Math.max(0.001, (Date.now() - progress.startedAt) / 1000);
  const n = (value: number) => value.toLocaleString('en-US');
  return (
    `${progress.pass}: ${n(progress.scanned)} scanned, ${n(progress.members)} members, ${n(progress.moved)} moved, ` +
    `${n(Math.round(progress.scanned / seconds))} items/s`
  );
}

export { describeCounts };
