import { ToolkitError } from '../errors.js';
import { sharedTripleKeys } from '../mapping/sharedTriples.js';
import { type RecordPartOptions, type RecordPartPlace, readRecordPart } from '../record/readRecordPart.js';
import { tryParse } from '../record/tryParse.js';
import type { FormatName } from '../formats.js';
import type { RecordWriter, SerializerOptions } from '../serialize/QuadSerializer.js';
import { type MapItemOptions, mapItem } from './mapItem.js';
import { EntryPacker, type PackedEntries } from './PackedEntries.js';
import type { PartEntry, RecordResult } from './RecordResult.js';
import { Utf8Builder } from './Utf8Builder.js';
import { type RecordJob, recordJob } from './recordJob.js';

export type { PartEntry, RecordResult } from './RecordResult.js';

export type { RecordJob } from './recordJob.js';

/**
 * A part of an input sent to a worker as its bytes (shared memory, or
 * transferred: not copied): the worker reads its records itself. `out`: shared
 * memory to write the part's text into (when it holds it). Defaults to none.
 */
export interface PartJob extends RecordPartPlace {
  bytes: Uint8Array;
  out?: SharedArrayBuffer;
}

/** What a worker is started with for parts: the reader's limits. */
export type WorkerReadOptions = RecordPartOptions;

/** What a worker answers for a part: an entry per item (packed), the written text's bytes, and the part's bytes given back. */
export interface PartResult {
  entries: PackedEntries;
  /** Items numbered in the part (records and problems). */
  numbered: number;
  /** As {@link RecordPartEnd.openLine}. */
  openLine?: number;
  bytes: Uint8Array;
  /** The part's own bytes, given back (transferred) for what this thread reads again: the record of a rejection, a broken record's start. */
  input: Uint8Array;
}

/** The map options a worker can take: those of {@link MapItemOptions} that can be posted (no data factory). */
export type WorkerMapOptions = Omit<MapItemOptions, 'factory' | 'recordLabel'>;

/** What a record worker is started with (`workerData`). */
export interface RecordWorkerData {
  format: FormatName;
  serializer: SerializerOptions;
  map: WorkerMapOptions;
  /** The reader's limits for parts. Defaults to `readRecords`' defaults. */
  read?: WorkerReadOptions;
}

/** What a worker answers for a batch: a result per job, and the text of those written as UTF-8, one after the other. */
export interface RecordBatchResult {
  results: RecordResult[];
  /** The written records' text, encoded once for the batch (the thread that writes it need not encode it). */
  bytes: Uint8Array;
}

/**
 * Normalises, maps and writes records one by one with `writer` (the body of a
 * record worker; pure but for the writer's state). The writer must have
 * continued after a record (`continueAfter(1)`), so that every record's text
 * is the same wherever it ends up in the output.
 */
export function convertRecords(
  jobs: readonly RecordJob[],
  writer: RecordWriter,
  options: WorkerMapOptions,
): RecordBatchResult {
  const out = new Utf8Builder();
  const results = jobs.map((job) => convertRecord(job, writer, options, out));
  return { results, bytes: out.bytes() };
}

/**
 * Reads a part of an input and normalises, maps and writes its records with
 * `writer`, as {@link convertRecords} does records sent one by one (the body
 * of a record worker taking parts). The text goes into `part.out` while it
 * holds it, else into a buffer of its own.
 */
export function convertPart(
  part: PartJob,
  writer: RecordWriter,
  options: WorkerMapOptions,
  read: WorkerReadOptions = {},
): PartResult {
  const items = readRecordPart(part.bytes, part, read);
  const out = part.out ? new Utf8Builder(part.out.byteLength, part.out) : new Utf8Builder();
  const entries = new EntryPacker();
  for (let next = items.next(); ; next = items.next()) {
    if (next.done) {
      const { numbered, openLine } = next.value;
      return {
        entries: entries.pack(),
        numbered,
        ...(openLine !== undefined ? { openLine } : {}),
        bytes: out.bytes(),
        input: part.bytes,
      };
    }
    const item = next.value;
    if (item.kind === 'problem') {
      entries.add({ kind: 'problem', problem: item });
      continue;
    }
    // A rejection is made again in the reading thread: it numbers the records of the whole input (and keeps the record).
    // The result takes its place as properties added, not spread into a copy: a spread of results of several shapes
    // went through V8's runtime (about 8,000 instructions a record, callgrind).
    const entry = convertRecord(recordJob(item), writer, options, out) as PartEntry & { line?: number };
    (entry as { index: number }).index = item.index;
    if (item.line !== undefined) entry.line = item.line;
    entries.add(entry);
  }
}

/** The record of a job: its value, or its text parsed as `readRecords` parsed it. */
function recordOf(job: RecordJob): unknown {
  if (job.text === undefined) return job.raw;
  const parsed = tryParse(job.text);
  if (!parsed.ok) throw new ToolkitError(`a record's text no longer parses: ${parsed.reason}`, 'internal');
  return parsed.value;
}

function convertRecord(
  job: RecordJob,
  writer: RecordWriter,
  options: WorkerMapOptions,
  out: Utf8Builder,
): RecordResult {
  let doi: string | undefined;
  let digest: [number, number] = [0, 0];
  try {
    const { source, index, line } = job;
    const outcome = mapItem(
      { kind: 'record', raw: recordOf(job), source, index, ...(line !== undefined ? { line } : {}) },
      options,
    );
    if (outcome.kind === 'rejected') {
      const { record: _record, ...rejection } = outcome.rejection;
      return { kind: 'rejected', rejection, hadRecord: 'record' in outcome.rejection };
    }
    const mapped = outcome.mapped;
    doi = mapped.doi;
    digest = outcome.digest;
    const bytes = out.record(writer, mapped.quads);
    return {
      kind: 'written',
      doi,
      digest,
      bytes,
      quadCount: mapped.quads.length,
      sharedKeys: sharedTripleKeys(mapped.quads),
      notes: mapped.notes,
      unknownFields: mapped.unknownFields,
      identities: mapped.identities,
    };
  } catch (err) {
    // A record the format cannot carry is a rejection (as in RecordSink); anything else fails the run.
    if (doi !== undefined && err instanceof ToolkitError && err.code === 'serialization')
      return { kind: 'unwritable', doi, digest, reason: err.message };
    const code = err instanceof ToolkitError ? err.code : 'internal';
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err), code };
  }
}
