import cliProgress from 'cli-progress';
import { formatCount } from '../core/count-text';

/** A progress bar on stderr, drawn only when stderr is a terminal and not --quiet, so logs and pipes stay clean. */
export interface Progress {
  /** Starts a phase; total 0 means unknown (only the counters move). */
  phase(label: string, total: number, unit: string): void;
  update(value: number, detail?: string): void;
  stop(): void;
}

export function createProgress(enabled: boolean): Progress {
  if (!enabled || !process.stderr.isTTY) {
    return { phase() {}, update() {}, stop() {} };
  }
  let bar: cliProgress.SingleBar | undefined;
  let unit = '';
  const stop = (): void => {
    bar?.stop();
    bar = undefined;
  };
  return {
    phase(label, total, unitName) {
      stop();
      unit = unitName;
      const known = total > 0;
      const format = known
        ? `${label.padEnd(8)} {bar} {percentage}% | {shown} | {detail}`
        : `${label.padEnd(8)} {shown} | {detail}`;
      bar = stderrBar(format, 8);
      bar.start(known ? total : 1, 0, { shown: '', detail: '' });
    },
    update(value, detail = '') {
      if (!bar) return;
      const shown = unit === 'steps' ? `step ${value}/${bar.getTotal()}` : formatAmount(value, unit);
      bar.update(Math.min(value, bar.getTotal()), { shown, detail });
    },
    stop,
  };
}

export function stderrBar(format: string, fps: number): cliProgress.SingleBar {
  return new cliProgress.SingleBar(
    { stream: process.stderr, format, hideCursor: true, fps },
    cliProgress.Presets.shades_classic,
  );
}

/** 104857600 bytes → "100.0 MiB"; other units as grouped integers. */
export function formatAmount(value: number, unit: string): string {
  if (unit === 'bytes') {
    const mib = value / (1 << 20);
    return mib >= 1024 ? `${(mib / 1024).toFixed(2)} GiB` : `${mib.toFixed(1)} MiB`;
  }
  return `${formatCount(value)} ${unit}`;
}
