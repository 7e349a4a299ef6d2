import type { JsonOf } from './collection.js';
import type { ShardlineClientError, Transport } from './transport.js';

/** What shardline takes in one batch request (src/service/write-items.ts). */
const MAX_BATCH_ITEMS = 1000;
/** Well under the service's 16 MiB body limit, so one request never holds a router's memory long. */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** `failed`: every item not written, by its index in the caller's array, with the reason. */
export type BatchWriteResult = Readonly<JsonOf<'batchPutItems', 200>>;

/** Writes the items in requests one after another; an item of a request that failed is in `failed` with its error. */
export async function batchPut(
  transport: Transport,
  path: string,
  items: readonly Record<string, unknown>[],
): Promise<BatchWriteResult> {
  let written = 0;
  const failed: BatchWriteResult['failed'] = [];
  for (const [start, chunk] of chunks(transport, items)) {
    try {
      const answer = await transport.send({ method: 'POST', path, body: { items: chunk } });
      const result = answer.body as BatchWriteResult;
      written += result.written;
      for (const failure of result.failed) failed.push({ index: start + failure.index, error: failure.error });
    } catch (error) {
      // The transport throws nothing else (network and timeout included).
      const { code, message } = error as ShardlineClientError;
      failed.push(...chunk.map((_, i) => ({ index: start + i, error: { code, message } })));
    }
  }
  return { written, failed };
}

/** The items cut into requests, each with the index of its first item. */
function* chunks(
  transport: Transport,
  items: readonly Record<string, unknown>[],
): Generator<[number, Record<string, unknown>[]]> {
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    const size = transport.json.stringify(items[i]).length + 1;
    if (i > start && (i - start === MAX_BATCH_ITEMS || bytes + size > MAX_BATCH_BYTES)) {
      yield [start, items.slice(start, i)];
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (items.length > start) yield [start, items.slice(start)];
}
