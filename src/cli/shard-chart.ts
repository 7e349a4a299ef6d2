import { balanceOf } from '../boundaries/shard-loads';
import { escapeXml, scaled, svgDocument } from './charts';
import { formatCount } from '../core/count-text';

/** `npm run boundaries -- --chart`: a bar per shard (hover: boundary, items), a line at the mean. */
export function shardChart(loads: ArrayLike<number>, boundaries: readonly unknown[], title: string): string {
  const n = loads.length;
  const { max, mean, maxOverMean } = balanceOf(loads);
  const barWidth = n <= 50 ? 24 : n <= 500 ? 4 : 1;
  const gap = n <= 500 ? 1 : 0;
  const left = 70;
  const top = 40;
  const height = 300;
  const width = left + n * (barWidth + gap) + 110;
  const y = (v: number): number => top + height - scaled(v, max, height);
  const parts: string[] = [
    `<text x="${left}" y="20" font-size="14">${escapeXml(title)}</text>`,
    `<text x="${left - 6}" y="${top + 4}" text-anchor="end">${formatCount(max)}</text>`,
    `<text x="${left - 6}" y="${top + height + 4}" text-anchor="end">0</text>`,
  ];
  for (let i = 0; i < n; i++) {
    const load = loads[i]!;
    const x = left + i * (barWidth + gap);
    const items = formatCount(load);
    const label = `shard ${i}: ${items} items, from ${JSON.stringify(boundaries[i] ?? '')}`;
    if (n <= 50)
      parts.push(
        `<text x="${x + barWidth / 2}" y="${top + height + 14}" text-anchor="middle" font-size="10">${i}</text>`,
      );
    parts.push(
      `<rect x="${x}" y="${y(load).toFixed(2)}" width="${barWidth}" height="${(top + height - y(load)).toFixed(2)}"` +
        ` fill="#4a7bd0"><title>${escapeXml(label)}</title></rect>`,
    );
  }
  parts.push(
    `<line x1="${left}" x2="${left + n * (barWidth + gap)}" y1="${y(mean).toFixed(2)}" y2="${y(mean).toFixed(2)}"` +
      ` stroke="#d04a4a" stroke-dasharray="4 3"/>`,
    `<text x="${left + n * (barWidth + gap) + 4}" y="${(y(mean) + 4).toFixed(2)}"` +
      ` fill="#d04a4a">mean ${formatCount(mean)}</text>`,
    `<text x="${left}" y="${top + height + 32}">shards 0–${n - 1} (${n})` +
      `; max/mean ${maxOverMean.toFixed(4)}</text>`,
  );
  return svgDocument(Math.max(width, 400), top + height + 48, parts) + '\n';
}
