import type { ReadItem } from '../record/readRecords.js';

type RecordItem = Extract<ReadItem, { kind: 'record' }>;

/**
 * A record sent to a worker: what `mapItem` reads of a `ReadItem` of kind
 * `record`, with the record as its JSON `text` when the item kept it (parsed
 * in the worker: cheaper than copying the value between threads), else `raw`.
 */
export type RecordJob = Pick<RecordItem, 'source' | 'index' | 'line'> &
  ({ raw: unknown; text?: undefined } | { text: string; raw?: undefined });

/**
 * The job of a record read in this thread, written as a literal of one of two shapes. Not `{ ...at, raw }`: in
 * optimised code V8 (Node 20) gives each such copy a map of its own, so every read of the job (`job.source`,
 * `job.raw`, ...) went megamorphic and missed V8's stub cache (a new map a record, 1,977 in 2,000 records;
 * `--log-ic`).
 */
export function recordJob(item: RecordItem): RecordJob {
  return item.line !== undefined
    ? { source: item.source, index: item.index, line: item.line, raw: item.raw }
    : { source: item.source, index: item.index, raw: item.raw };
}
