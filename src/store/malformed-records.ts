/** Distinct reports remembered; past that the memory starts afresh (a repeat is logged again, memory stays bounded). */
const REMEMBERED = 1000;

/**
 * Where a reader of shardline's own records (shard maps, load records, checkpoints) reports one it cannot use —
 * forged, damaged, or from a version that wrote another shape — before treating it as absent. Each record and
 * problem is logged once per reader, not on every read of it: a bad record read every second must not flood the log.
 */
export class MalformedRecords {
  private readonly reported = new Set<string>();

  report(kind: string, table: string, key: unknown, problem: string): void {
    const line = JSON.stringify({ level: 'warn', event: 'shardline.malformed_record', kind, table, key, problem });
    if (this.reported.has(line)) return;
    if (this.reported.size >= REMEMBERED) this.reported.clear();
    this.reported.add(line);
    console.warn(line);
  }
}
