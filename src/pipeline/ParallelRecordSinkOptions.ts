import { sharedTripleKeys } from '../mapping/sharedTriples.js';
import type { FormatName } from '../formats.js';
import type { MappedRecord } from '../mapping/mapRecord.js';
import type { RecordPartOptions } from '../record/readRecordPart.js';
import type { SerializerOptions } from '../serialize/QuadSerializer.js';
import type { WorkerMapOptions } from './convertRecords.js';
import type { RecordPlace } from './DoiContents.js';
import type { Rejection } from './Rejection.js';

/** What `ParallelRecordSink` tells of a record it wrote: its mapping's outline (the quads stayed in the worker). */
export interface WrittenOutline extends Pick<MappedRecord, 'doi' | 'notes' | 'unknownFields' | 'identities'> {
  /** The record's statements (`mapped.quads.length` in `RecordSink`). */
  quadCount: number;
  /** The keys of its statements about shared entities (`sharedTripleKeys`), for a count of distinct statements. */
  sharedKeys: number[];
}

/** The outline of a record `RecordSink` mapped (what `ParallelRecordSink` tells of it), for code that takes both. */
export function outlineOf(mapped: MappedRecord): WrittenOutline {
  return {
    doi: mapped.doi,
    quadCount: mapped.quads.length,
    sharedKeys: sharedTripleKeys(mapped.quads),
    notes: mapped.notes,
    unknownFields: mapped.unknownFields,
    identities: mapped.identities,
  };
}

export type { RecordPlace } from './DoiContents.js';

/** A record `ParallelRecordSink` wrote, with where it came from (the record itself stayed in a worker). */
export interface ParallelWrittenRecord {
  item: RecordPlace;
  mapped: WrittenOutline;
}

/** Options of `ParallelRecordSink`. */
export interface ParallelRecordSinkOptions extends WorkerMapOptions, RecordPartOptions {
  /** The output format; every worker creates its own writer of it. */
  format: FormatName;
  /** Options of the writers (prefixes, N-Quads graph, JSON-LD context). Defaults to the format's defaults. */
  serializer?: SerializerOptions;
  /** Worker threads. Defaults to 2. */
  jobs?: number;
  /** Records sent to a worker at a time (what `take()` costs least with). Defaults to 64 (larger batches hold more memory, no faster). */
  batchSize?: number;
  /** Batches in flight at most: `take()` and `takeInput()` wait for the oldest before sending more (back-pressure). Defaults to 4 per worker (for the parts of `takeInput()`: held, sent or done and waiting for an older one; a worker has 2 at most). */
  maxBatchesInFlight?: number;
  /** As in `RecordSink`: reject a record whose DOI came before in this sink (with the conflict when its content differs). Defaults to true. */
  rejectDuplicateDois?: boolean;
  /** Called for every rejected record, in input order; may throw to stop the run. Defaults to none (counted only). */
  onRejected?: (rejection: Rejection) => void | Promise<void>;
  /** Called for every written record, in input order. Defaults to none. */
  onWritten?: (record: ParallelWrittenRecord) => void | Promise<void>;
  /** Ends the workers; `take()` and `end()` then reject (code `aborted`). Defaults to none. */
  signal?: AbortSignal;
  /** Bytes of an input a worker reads at a time (`takeInput`), about: cut at a line break past it. Defaults to 128 KiB (`DEFAULT_PART_BYTES`: less CPU, wall time and memory than 256 KiB, measured). */
  partBytes?: number;
  /** @internal The worker script (tests run it compiled from the sources). Defaults to the built `recordWorker.js`. */
  workerUrl?: URL;
}
