import type * as RDF from '@rdfjs/types';
import { Buffer } from 'node:buffer';
import { DataFactory } from 'n3';
import { abortError } from '../abort.js';
import { ToolkitError } from '../errors.js';
import type { MappedRecord } from '../mapping/mapRecord.js';
import { DoiSet } from '../record/DoiSet.js';
import type { ReadItem } from '../record/readRecords.js';
import type { FormatName, RecordWriter, SerializerOptions } from '../serialize/QuadSerializer.js';
import { serializerFor } from '../serialize/serializers.js';
import type { RecordBatchResult, RecordJob, RecordResult, WorkerMapOptions } from './convertRecords.js';
import { mapItem } from './mapItem.js';
import { RecordWorkerPool } from './RecordWorkerPool.js';
import type { Rejection } from './Rejection.js';
import { type RecordItem, duplicateDoiRejection, unwritableRejection } from './sinkRejections.js';

/** What {@link ParallelRecordSink} tells of a record it wrote: its mapping's outline (the quads stayed in the worker). */
export interface WrittenOutline extends Pick<MappedRecord, 'doi' | 'notes' | 'unknownFields' | 'identities'> {
  /** The record's statements (`mapped.quads.length` in `RecordSink`). */
  quadCount: number;
}

/** The outline of a record `RecordSink` mapped (what `ParallelRecordSink` tells of it), for code that takes both. */
export function outlineOf(mapped: MappedRecord): WrittenOutline {
  return { doi: mapped.doi, quadCount: mapped.quads.length, notes: mapped.notes, unknownFields: mapped.unknownFields, identities: mapped.identities };
}

/** A record {@link ParallelRecordSink} wrote, with where it came from. */
export interface ParallelWrittenRecord {
  item: RecordItem;
  mapped: WrittenOutline;
}

/** Options of {@link ParallelRecordSink}. */
export interface ParallelRecordSinkOptions extends WorkerMapOptions {
  /** The output format; every worker creates its own writer of it. */
  format: FormatName;
  /** Options of the writers (prefixes, N-Quads graph, JSON-LD context). Defaults to the format's defaults. */
  serializer?: SerializerOptions;
  /** Worker threads. Defaults to 2. */
  jobs?: number;
  /** Records sent to a worker at a time (what `take()` costs least with). Defaults to 64 (larger batches hold more memory, no faster). */
  batchSize?: number;
  /** Batches in flight at most: `take()` waits for the oldest before sending more (back-pressure). Defaults to 4 per worker. */
  maxBatchesInFlight?: number;
  /** As in `RecordSink`: reject a record whose DOI came before in this sink. Defaults to true. */
  rejectDuplicateDois?: boolean;
  /** Called for every rejected record, in input order; may throw to stop the run. Defaults to none (counted only). */
  onRejected?: (rejection: Rejection) => void | Promise<void>;
  /** Called for every written record, in input order. Defaults to none. */
  onWritten?: (record: ParallelWrittenRecord) => void | Promise<void>;
  /** Ends the workers; `take()` and `end()` then reject (code `aborted`). Defaults to none. */
  signal?: AbortSignal;
  /** @internal The worker script (tests run it compiled from the sources). Defaults to the built `recordWorker.js`. */
  workerUrl?: URL;
}

interface Batch {
  items: readonly ReadItem[];
  /** Resolves (never rejects) when the worker answered or failed. */
  settled: Promise<void>;
  done: boolean;
  answer?: RecordBatchResult;
  error?: unknown;
}

/**
 * {@link RecordSink}'s pipeline on several cores: batches of items go to
 * worker threads, which normalise, map and write each record; this thread
 * keeps the input order, de-duplicates by DOI, calls `onRejected` and
 * `onWritten` in input order and joins the text, byte for byte the UTF-8 of
 * what a `RecordSink` with the same writer gives (the workers encode it).
 * No validation (it needs the quads in this thread: use `RecordSink`).
 *
 * `take()` returns the bytes of the batches finished so far, in order (not
 * necessarily those just taken); it waits while `maxBatchesInFlight` are out,
 * so memory stays bounded. `end()` returns the rest and ends the workers;
 * after a failure call {@link close}. Idle workers never keep the process alive.
 *
 * ```ts
 * const sink = new ParallelRecordSink({ format: 'ntriples', jobs: 2, onRejected: (r) => rejects.push(r) });
 * try {
 *   out.write(sink.start());
 *   out.write(await sink.take(items));
 *   out.write(await sink.end());
 * } finally {
 *   await sink.close();
 * }
 * ```
 */
export class ParallelRecordSink {
  private readonly dois: DoiSet | undefined;
  private readonly writer: RecordWriter;
  private readonly separator: { first: Buffer; later: Buffer };
  private readonly pool: RecordWorkerPool;
  private readonly queue: Batch[] = [];
  private readonly onAbort: (() => void) | undefined;
  /** Whether the output holds a record's text already (JSON-LD: the next one needs a comma). */
  private emitted = false;
  /** Items taken. */
  read = 0;
  /** Records written. */
  written = 0;
  /** Items rejected. */
  rejected = 0;

  constructor(private readonly options: ParallelRecordSinkOptions) {
    const create = (): RecordWriter => serializerFor(options.format).createWriter(options.serializer ?? {});
    this.writer = create();
    const { first, later } = leadingSeparators(create);
    this.separator = { first: Buffer.from(first), later: Buffer.from(later) };
    this.dois = options.rejectDuplicateDois === false ? undefined : new DoiSet();
    const map: WorkerMapOptions = {
      ...(options.base !== undefined ? { base: options.base } : {}),
      ...(options.schemaScheme !== undefined ? { schemaScheme: options.schemaScheme } : {}),
      ...(options.graphPerRecord ? { graphPerRecord: true } : {}),
    };
    const signal = options.signal;
    if (signal?.aborted) throw abortError(signal);
    this.pool = new RecordWorkerPool({ format: options.format, serializer: options.serializer ?? {}, map }, { workers: options.jobs ?? 2, ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}) });
    if (signal) {
      this.onAbort = () => void this.pool.close(abortError(signal));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** Records sent to a worker at a time: take() batches of this size cost least. */
  get batchSize(): number {
    return this.options.batchSize ?? 64;
  }

  /** Number of worker threads. */
  get jobs(): number {
    return this.pool.workers;
  }

  private get maxInFlight(): number {
    return Math.max(1, this.options.maxBatchesInFlight ?? 4 * this.pool.workers);
  }

  /** The text that starts the output (prefixes, an opening bracket). */
  start(): string {
    this.emitted = false;
    return this.writer.start();
  }

  /** Numbers the next records after `records` already written (a resumed output). */
  continueAfter(records: number): void {
    this.emitted = records > 0;
    this.writer.continueAfter(records);
  }

  /**
   * Takes items in order; returns the UTF-8 text of the batches finished so
   * far (rejections go to `onRejected`). Items that kept their JSON text
   * (`readRecords`' `keepText`) are sent as text, parsed in the worker.
   */
  async take(items: readonly ReadItem[]): Promise<Buffer> {
    this.checkSignal();
    const parts: Buffer[] = [];
    // Back-pressure: the oldest batches first, until there is room for this one.
    while (this.queue.length >= this.maxInFlight || this.queue[0]?.done) await this.settle(this.queue.shift()!, parts);
    const jobs: RecordJob[] = [];
    for (const item of items) if (item.kind === 'record') jobs.push(jobOf(item));
    const batch: Batch = { items, done: false, settled: Promise.resolve() };
    batch.settled = this.pool.convert(jobs).then(
      (answer) => void Object.assign(batch, { answer, done: true }),
      (error: unknown) => void Object.assign(batch, { error, done: true }),
    );
    this.queue.push(batch);
    return joined(parts);
  }

  /** The UTF-8 text of every batch still in flight, in order. */
  async flush(): Promise<Buffer> {
    this.checkSignal();
    const parts: Buffer[] = [];
    while (this.queue.length > 0) await this.settle(this.queue.shift()!, parts);
    return joined(parts);
  }

  /** Writes a group of quads in this thread after the records taken (an RDF input re-serialised beside records). */
  async writeQuads(quads: readonly RDF.Quad[]): Promise<Buffer> {
    const text = await this.flush();
    const own = this.writer.write(quads);
    if (own !== '') this.emitted = true;
    return joined([text, Buffer.from(own)]);
  }

  /** The UTF-8 text of the batches still in flight, then of the text that ends the output; ends the workers. */
  async end(): Promise<Buffer> {
    try {
      const text = await this.flush();
      return joined([text, Buffer.from(this.writer.end())]);
    } finally {
      await this.close();
    }
  }

  /** Ends the workers (batches in flight are dropped). Safe to call more than once. */
  async close(): Promise<void> {
    if (this.onAbort) this.options.signal?.removeEventListener('abort', this.onAbort);
    await this.pool.close();
  }

  private checkSignal(): void {
    if (this.options.signal?.aborted) throw abortError(this.options.signal);
  }

  /** Waits for a batch and passes its items on in order: the bytes of those written go to `parts`. */
  private async settle(batch: Batch, parts: Buffer[]): Promise<void> {
    await batch.settled;
    this.checkSignal();
    if (batch.error !== undefined) throw batch.error;
    const { results, bytes } = batch.answer!;
    const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Records written one after the other go on as one slice of the worker's bytes: [runStart, offset).
    let next = 0;
    let offset = 0;
    let runStart = 0;
    const endRun = (at: number): void => {
      if (at > runStart) parts.push(all.subarray(runStart, at));
    };
    for (const item of batch.items) {
      this.read++;
      if (item.kind === 'problem') {
        const outcome = mapItem(item);
        if (outcome.kind === 'rejected') await this.reject(outcome.rejection);
        continue;
      }
      const result = results[next++]!;
      const start = offset;
      if (result.kind === 'written') offset += result.bytes;
      if (!(await this.pass(item, result))) {
        endRun(start);
        runStart = offset;
      } else if (offset > start && !this.emitted) {
        const skip = this.placeFirst(all.subarray(start, offset));
        if (skip === 0) continue;
        endRun(start);
        parts.push(this.separator.first);
        runStart = start + skip;
      }
    }
    endRun(offset);
  }

  /**
   * The output's first record (its bytes): this thread's writer goes on as
   * after a record; how many of its first bytes to replace with the
   * separator a writer gives a first record (0: none).
   */
  private placeFirst(record: Buffer): number {
    this.emitted = true;
    // This thread's writer writes what follows (a re-serialised group, the end) as after a record.
    this.writer.continueAfter(1);
    const { first, later } = this.separator;
    return !first.equals(later) && record.subarray(0, later.length).equals(later) ? later.length : 0;
  }

  /** Passes a worker's result on; whether the record was written. */
  private async pass(item: RecordItem, result: RecordResult): Promise<boolean> {
    if (result.kind === 'failed') {
      const where = `${item.source}#${item.index}`;
      throw result.code === 'internal' ? new ToolkitError(`record ${where}: a record worker failed: ${result.message}`, 'internal') : new ToolkitError(result.message, result.code);
    }
    if (result.kind === 'rejected') {
      await this.reject(result.hadRecord ? { ...result.rejection, record: item.raw } : result.rejection);
      return false;
    }
    // Only a record that goes into the output takes its DOI (as in RecordSink): checked before the format's refusal.
    if (this.dois && !this.dois.add(result.doi)) {
      await this.reject(duplicateDoiRejection(item, result.doi));
      return false;
    }
    if (result.kind === 'unwritable') {
      await this.reject(unwritableRejection(item, result.doi, result.reason, this.options.format));
      return false;
    }
    this.written++;
    await this.options.onWritten?.({ item, mapped: { doi: result.doi, quadCount: result.quadCount, notes: result.notes, unknownFields: result.unknownFields, identities: result.identities } });
    return true;
  }

  private async reject(rejection: Rejection): Promise<void> {
    this.rejected++;
    await this.options.onRejected?.(rejection);
  }
}

/**
 * What a writer puts before a record's text when the record is the first of
 * the output and when it follows another (JSON-LD: `""` and `","`; the other
 * formats: nothing), found by writing one probe statement both ways: the
 * text past the longest common end is the difference.
 */
export function leadingSeparators(create: () => RecordWriter): { first: string; later: string } {
  const probe = [DataFactory.quad(DataFactory.namedNode('https://example.org/probe'), DataFactory.namedNode('http://schema.org/name'), DataFactory.literal('probe'))];
  const fresh = create();
  fresh.start();
  const first = fresh.write(probe);
  const continued = create();
  continued.continueAfter(1);
  const later = continued.write(probe);
  let common = 0;
  while (common < first.length && common < later.length && first[first.length - 1 - common] === later[later.length - 1 - common]) common++;
  return { first: first.slice(0, first.length - common), later: later.slice(0, later.length - common) };
}

/** A record job: the item's JSON text when it kept it, else its value. */
function jobOf(item: RecordItem): RecordJob {
  const at = { source: item.source, index: item.index, ...(item.line !== undefined ? { line: item.line } : {}) };
  return item.text !== undefined ? { ...at, text: item.text } : { ...at, raw: item.raw };
}

/** Parts of the output as one buffer. */
function joined(parts: Buffer[]): Buffer {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
