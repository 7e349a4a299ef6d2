import { escapeXml, scaled, svgDocument } from '../../src/cli/charts';
import type { RowFigures } from './figures';

/**
 * A two-panel horizontal bar chart: median page latency with the added per-call
 * latency (p99 as a thin whisker), and median items read ÷ returned. Plain SVG,
 * drawn with devtools' chart helpers.
 */
export function latencyChart(rows: readonly RowFigures[], delayMs: number, title: string): string {
  const barHeight = 22;
  const gap = 8;
  const labelWidth = 190;
  const panelWidth = 360;
  const top = 56;
  const height = top + rows.length * (barHeight + gap) + 40;
  const width = labelWidth + 2 * panelWidth + 60;
  const maxMs = Math.max(...rows.map((row) => row.delayedMs.p99));
  const maxRatio = Math.max(...rows.map((row) => row.readRatio.p50));
  const parts: string[] = [
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${labelWidth}" y="44">page latency, +${delayMs} ms per DynamoDB call (bar p50, whisker p99)</text>`,
    `<text x="${labelWidth + panelWidth + 30}" y="44">items read ÷ items returned (p50)</text>`,
  ];
  rows.forEach((row, i) => {
    const y = top + i * (barHeight + gap);
    const color = row.kind === 'shardline' ? '#2b6cb0' : '#c05621';
    const p50 = scaled(row.delayedMs.p50, maxMs, panelWidth - 60);
    const p99 = scaled(row.delayedMs.p99, maxMs, panelWidth - 60);
    const ratio = scaled(row.readRatio.p50, maxRatio, panelWidth - 60);
    parts.push(
      `<text x="10" y="${y + 15}">${escapeXml(row.name)}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${p50.toFixed(1)}" height="${barHeight}" fill="${color}"/>`,
      `<line x1="${labelWidth + p50}" y1="${y + barHeight / 2}"` +
        ` x2="${labelWidth + p99}" y2="${y + barHeight / 2}" stroke="#333"/>`,
      `<text x="${labelWidth + p99 + 4}" y="${y + 15}">${row.delayedMs.p50.toFixed(0)} ms</text>`,
      `<rect x="${labelWidth + panelWidth + 30}" y="${y}" width="${ratio.toFixed(1)}"` +
        ` height="${barHeight}" fill="${color}"/>`,
      `<text x="${labelWidth + panelWidth + 34 + ratio}" y="${y + 15}">${row.readRatio.p50.toFixed(2)}</text>`,
    );
  });
  parts.push(
    `<text x="10" y="${height - 12}" fill="#555">blue: shardline` +
      ' · orange: naive baselines (same table, AWS SDK)</text>',
  );
  return svgDocument(width, height, parts);
}
