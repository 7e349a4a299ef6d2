/* The charts of the benches and scripts: plain SVG with no dependencies, and text bars for the terminal. */

/** Text for SVG content and attributes: the five XML specials as character references. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An SVG document of the given size (sans-serif, 12 px), one element per line. */
export function svgDocument(width: number, height: number, elements: readonly string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"` +
      ' font-family="sans-serif" font-size="12">',
    ...elements,
    '</svg>',
  ].join('\n');
}

/** `value` as a length out of `length` for a scale whose top is `max`; 0 when `max` is 0. */
export function scaled(value: number, max: number, length: number): number {
  return max > 0 ? (value / max) * length : 0;
}

const BLOCKS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A terminal bar of `width` cells for value / max, with eighth-cell resolution. */
export function textBar(value: number, max: number, width: number): string {
  const eighths = Math.round(scaled(value, max, width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + BLOCKS[eighths % 8]!;
}
