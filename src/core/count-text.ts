/** A count as people read it: rounded, grouped in thousands the same on every machine (12,345). */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
