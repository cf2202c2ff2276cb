import type { ReadItem } from '../record/readRecords.js';
import type { RecordPartPlace } from '../record/readRecordPart.js';
import type { PartResult, RecordBatchResult } from './convertRecords.js';
import { type RecordJob, recordJob } from './recordJob.js';
import type { RecordItem } from './sinkRejections.js';

/** Work out in the workers: a batch of items or a part of an input, and the answer it awaits. */
export interface Pending<T> {
  /** Resolves (never rejects) when the worker answered or failed. */
  settled: Promise<void>;
  done: boolean;
  answer?: T;
  error?: unknown;
}

/** Items read in this thread, sent as records. */
export interface ItemBatch extends Pending<RecordBatchResult> {
  kind: 'items';
  items: readonly ReadItem[];
}

/** A part of an input, sent as its bytes: the worker reads it. */
export interface PartBatch extends Pending<PartResult> {
  kind: 'part';
  place: RecordPartPlace;
}

export type Batch = ItemBatch | PartBatch;

/** The start of a record broken over lines that a part did not end: read again with the next part. */
export interface OpenRecord {
  line: number;
  bytes: Uint8Array;
}

/** Pending work settled when the worker answers or fails. */
export function pending<T, B extends Pending<T>>(batch: B, work: Promise<T>): B {
  batch.settled = work.then(
    (answer) => void Object.assign(batch, { answer, done: true }),
    (error: unknown) => void Object.assign(batch, { error, done: true }),
  );
  return batch;
}

/** A record job: the item's JSON text when it kept it, else its value. */
export function jobOf(item: RecordItem): RecordJob {
  // Literals of fixed shapes, not a spread into a copy (`recordJob`: a map of its own a copy in optimised code).
  if (item.text === undefined) return recordJob(item);
  return item.line !== undefined
    ? { source: item.source, index: item.index, line: item.line, text: item.text }
    : { source: item.source, index: item.index, text: item.text };
}
