import { type ErrorCode, ToolkitError } from '../errors.js';
import type { ReadItem } from '../record/readRecords.js';
import type { FormatName, RecordWriter, SerializerOptions } from '../serialize/QuadSerializer.js';
import { type MapItemOptions, mapItem } from './mapItem.js';
import type { Rejection } from './Rejection.js';

/** A record sent to a worker: what `mapItem` reads of a `ReadItem` of kind `record`. */
export type RecordJob = Omit<Extract<ReadItem, { kind: 'record' }>, 'kind'>;

/** The map options a worker can take: those of {@link MapItemOptions} that can be posted (no data factory). */
export type WorkerMapOptions = Omit<MapItemOptions, 'factory' | 'recordLabel'>;

/** What a record worker is started with (`workerData`). */
export interface RecordWorkerData {
  format: FormatName;
  serializer: SerializerOptions;
  map: WorkerMapOptions;
}

/**
 * The outcome of one record in a worker, in a form `postMessage` copies cheaply:
 * - `written`: the record's text, as a writer writes it after earlier records (JSON-LD: `,\n` first);
 * - `unwritable`: mapped, but the format cannot carry it (the writer's `serialization` message);
 * - `rejected`: normalising or mapping failed (`hadRecord`: the rejection carried the raw record, left out here);
 * - `failed`: an error that fails the run (a bug, not a bad record).
 */
export type RecordResult =
  | { kind: 'written'; doi: string; text: string; quadCount: number; notes: string[]; unknownFields: string[] }
  | { kind: 'unwritable'; doi: string; reason: string }
  | { kind: 'rejected'; rejection: Omit<Rejection, 'record'>; hadRecord: boolean }
  | { kind: 'failed'; message: string; code: ErrorCode };

/**
 * Normalises, maps and writes records one by one with `writer` (the body of a
 * record worker; pure but for the writer's state). The writer must have
 * continued after a record (`continueAfter(1)`), so that every record's text
 * is the same wherever it ends up in the output.
 */
export function convertRecords(jobs: readonly RecordJob[], writer: RecordWriter, options: WorkerMapOptions): RecordResult[] {
  return jobs.map((job) => convertRecord(job, writer, options));
}

function convertRecord(job: RecordJob, writer: RecordWriter, options: WorkerMapOptions): RecordResult {
  let doi: string | undefined;
  try {
    const outcome = mapItem({ kind: 'record', ...job }, options);
    if (outcome.kind === 'rejected') {
      const { record: _record, ...rejection } = outcome.rejection;
      return { kind: 'rejected', rejection, hadRecord: 'record' in outcome.rejection };
    }
    const mapped = outcome.mapped;
    doi = mapped.doi;
    const text = writer.write(mapped.quads);
    return { kind: 'written', doi, text, quadCount: mapped.quads.length, notes: mapped.notes, unknownFields: mapped.unknownFields };
  } catch (err) {
    // A record the format cannot carry is a rejection (as in RecordSink); anything else fails the run.
    if (doi !== undefined && err instanceof ToolkitError && err.code === 'serialization') return { kind: 'unwritable', doi, reason: err.message };
    const code = err instanceof ToolkitError ? err.code : 'internal';
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err), code };
  }
}
