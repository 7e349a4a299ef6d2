import type { DynamoOperation, DynamoSender, RawAnswer } from './dynamo-sender';
import type { Send } from './retry';

/**
 * The capacity one request's DynamoDB calls consumed, table and indexes together, as DynamoDB reported it
 * (an engine that does not report, dynalite, adds nothing).
 */
export interface ConsumedCapacity {
  read: number;
  write: number;
}

/** Adds what one answer reports (BatchGetItem and TransactWriteItems report one entry per table). */
export function addConsumed(capacity: ConsumedCapacity, operation: DynamoOperation, answer: RawAnswer): void {
  const reported = answer.ConsumedCapacity;
  const entries = Array.isArray(reported) ? reported : reported ? [reported] : [];
  for (const entry of entries as CapacityEntry[]) {
    if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
      capacity.read += entry.ReadCapacityUnits ?? 0;
      capacity.write += entry.WriteCapacityUnits ?? 0;
    } else if (READS.has(operation)) capacity.read += entry.CapacityUnits ?? 0;
    else capacity.write += entry.CapacityUnits ?? 0;
  }
}

interface CapacityEntry {
  readonly CapacityUnits?: number;
  readonly ReadCapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
}

const READS: ReadonlySet<DynamoOperation> = new Set(['GetItem', 'BatchGetItem', 'Query']);

/** A sender of the lean path, the same calls asking for and counting consumed capacity. */
export type CallSender = Pick<DynamoSender, 'send'>;

/** The lean sender, and how one request sends through it (retried, within the in-flight limit). */
export interface LeanClient {
  readonly calls: CallSender;
  readonly send: Send;
}

/** `calls` itself when nothing counts; else each call asks DynamoDB for its capacity and adds it to `capacity`. */
export function countingSender(calls: CallSender, capacity: ConsumedCapacity | undefined): CallSender {
  if (!capacity) return calls;
  return {
    async send(operation, input, signal) {
      const answer = await calls.send(operation, { ...input, ReturnConsumedCapacity: 'INDEXES' }, signal);
      addConsumed(capacity, operation, answer);
      return answer;
    },
  };
}
