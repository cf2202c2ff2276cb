import type * as RDF from '@rdfjs/types';
import { Buffer } from 'node:buffer';
import { abortError } from '../abort.js';
import { ToolkitError } from '../errors.js';
import { type ReadItem, readRecords } from '../record/readRecords.js';
import type { RecordPartOptions } from '../record/readRecordPart.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';
import { serializerFor } from '../serialize/serializers.js';
import type { PartResult, RecordBatchResult, RecordJob, WorkerMapOptions } from './convertRecords.js';
import { DEFAULT_PART_BYTES, cutParts } from './cutParts.js';
import { DoiContents } from './DoiContents.js';
import { RecordWorkerPool } from './RecordWorkerPool.js';
import type { Rejection } from './Rejection.js';
import { duplicateDoiRejection, unwritableRejection } from './sinkRejections.js';
import { leadingSeparators } from './leadingSeparators.js';
import { concatenated, joined, lineStart, prepended } from './partBytes.js';
import { type Batch, type ItemBatch, type OpenRecord, type PartBatch, jobOf, pending } from './sinkBatches.js';
import type { ParallelRecordSinkOptions } from './ParallelRecordSinkOptions.js';
import { SharedBuffers, isShared } from './SharedBuffers.js';
import { type Unit, remadeRejection, unitsOfItems, unitsOfPart } from './sinkUnits.js';

export { leadingSeparators } from './leadingSeparators.js';
export {
  outlineOf,
  type ParallelRecordSinkOptions,
  type ParallelWrittenRecord,
  type RecordPlace,
  type WrittenOutline,
} from './ParallelRecordSinkOptions.js';

/** Parts a worker is given at most: one it reads while the next waits (more only hold more memory). */
const PARTS_PER_WORKER = 2;

/**
 * Parts held at most per worker (sent and not passed on: done ones wait for
 * an older one): a worker that finished its parts before the other's older
 * part is given more, so neither waits for the other.
 */
const PARTS_HELD_PER_WORKER = 4;

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
  private readonly dois: DoiContents | undefined;
  private readonly writer: RecordWriter;
  private readonly separator: { first: Buffer; later: Buffer };
  private readonly pool: RecordWorkerPool;
  private readonly queue: Batch[] = [];
  private readonly onAbort: (() => void) | undefined;
  /** Whether the output holds a record's text already (JSON-LD: the next one needs a comma). */
  private emitted = false;
  /** Items numbered in the input being read in parts, by the parts settled. */
  private numbered = 0;
  /** A record broken over lines that the last part settled did not end. */
  private open: OpenRecord | undefined;
  private readonly limits: RecordPartOptions;
  /** The workers' buffers whose bytes were yielded by `takeInput`: how many slices of each are not written yet. */
  private readonly unwritten = new WeakMap<ArrayBufferLike, number>();
  /** Shared memory for the parts' bytes (`takeInput`), and for the text the workers write of them. */
  private readonly inputs: SharedBuffers;
  private readonly outputs: SharedBuffers;
  /** The most text a part gave so far, in bytes (the next parts' output memory has room for more). */
  private largestOutput = 0;
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
    this.dois = options.rejectDuplicateDois === false ? undefined : new DoiContents();
    const map: WorkerMapOptions = {
      ...(options.base !== undefined ? { base: options.base } : {}),
      ...(options.schemaScheme !== undefined ? { schemaScheme: options.schemaScheme } : {}),
      ...(options.graphPerRecord ? { graphPerRecord: true } : {}),
    };
    const signal = options.signal;
    if (signal?.aborted) throw abortError(signal);
    this.limits = {
      ...(options.maxDocumentChars !== undefined ? { maxDocumentChars: options.maxDocumentChars } : {}),
      ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    };
    this.pool = new RecordWorkerPool(
      { format: options.format, serializer: options.serializer ?? {}, map, read: this.limits },
      { workers: options.jobs ?? 2, ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}) },
    );
    // The parts held, and a few whose text waits to be written out (or is being cut).
    this.inputs = new SharedBuffers(PARTS_HELD_PER_WORKER * this.pool.workers + 2);
    this.outputs = new SharedBuffers(PARTS_HELD_PER_WORKER * this.pool.workers + 4);
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

  /** Batches (`perWorker`: by default, per worker) in flight at most. */
  private maxInFlight(perWorker: number): number {
    return Math.max(1, this.options.maxBatchesInFlight ?? perWorker * this.pool.workers);
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
    const parts = await this.room(4);
    const jobs: RecordJob[] = [];
    for (const item of items) if (item.kind === 'record') jobs.push(jobOf(item));
    this.queue.push(
      pending<RecordBatchResult, ItemBatch>(
        { kind: 'items', items, done: false, settled: Promise.resolve() },
        this.pool.convert(jobs),
      ),
    );
    return joined(parts);
  }

  /**
   * Reads an input (its bytes, as read: a file, gunzipped, stdin) in the
   * workers: it is cut into parts of about `partBytes` after a line break
   * ({@link cutParts}), each read, normalised, mapped and written by a
   * worker; this thread passes the items on in order, as `take()` does those
   * of `readRecords` over the same input (the same numbers, lines, problems
   * and output). Yields the UTF-8 text of the batches finished as it goes,
   * as slices of the workers' buffers (not copied): {@link release} gives a
   * slice written out back (its memory takes a later part's text).
   * Parts and their text are in shared memory, taken again once done with.
   * A line too long to cut around is read here from its line on, each read
   * of the input given to `release` once no part of it is held (`readRecords`'
   * `release`: the reads of a file read into again).
   */
  async *takeInput(
    input: AsyncIterable<Uint8Array | string>,
    source: string,
    release?: (chunk: Uint8Array) => void,
  ): AsyncGenerator<Buffer> {
    const partBytes = this.options.partBytes ?? DEFAULT_PART_BYTES;
    // A part of the usual size in shared memory (room for one a little larger to take it again); a larger one apart.
    const allocate = (length: number): Uint8Array =>
      length <= 2 * partBytes
        ? new Uint8Array(this.inputs.take(length, Math.min(2 * partBytes, length + (length >> 2))), 0, length)
        : Buffer.allocUnsafeSlow(length);
    for await (const cut of cutParts(input, { ...this.limits, partBytes, allocate })) {
      if (cut.kind === 'part') {
        const parts = await this.roomForPart();
        const place = { source, line: cut.line, first: cut.first, last: cut.last };
        this.queue.push(
          pending<PartResult, PartBatch>(
            { kind: 'part', place, done: false, settled: Promise.resolve() },
            this.pool.convertPart({ ...place, bytes: cut.bytes, out: this.outputMemory() }),
          ),
        );
        yield* parts;
        continue;
      }
      // The rest in this thread (after the parts in flight, which say where it starts), sent as records.
      const parts: Buffer[] = [];
      while (this.queue.length > 0) await this.settle(this.queue.shift()!, parts);
      yield* parts;
      const open = this.open;
      this.open = undefined;
      const after = cut.fromStart ? {} : { after: { line: open ? open.line - 1 : cut.lines, index: this.numbered } };
      const rest = open ? prepended(open.bytes, cut.rest) : cut.rest;
      let batch: ReadItem[] = [];
      for await (const item of readRecords(rest, {
        source,
        ...this.limits,
        keepText: true,
        ...after,
        ...(release ? { release } : {}),
      })) {
        batch.push(item);
        if (batch.length < this.batchSize) continue;
        yield await this.take(batch);
        batch = [];
      }
      yield await this.take(batch);
    }
  }

  /**
   * Bytes `takeInput` yielded were written out (the stream took them): once
   * every slice of a part's output memory is, a later part's text is written
   * into it. Other bytes are let be.
   */
  release(bytes: Uint8Array): void {
    const left = this.unwritten.get(bytes.buffer);
    if (left === undefined) return;
    if (left > 1) {
      this.unwritten.set(bytes.buffer, left - 1);
      return;
    }
    this.unwritten.delete(bytes.buffer);
    this.outputs.give(bytes.buffer as SharedArrayBuffer);
  }

  /**
   * Output memory for the next part: one given back that holds the most text a
   * part gave so far, else a new one with room for a quarter more (at least
   * 1 MiB). A part that writes more goes on into memory of its own.
   */
  private outputMemory(): SharedArrayBuffer {
    const most = this.largestOutput;
    return this.outputs.take(most, Math.max(1 << 20, most + (most >> 2)));
  }

  /**
   * Where the next part goes: to a worker the moment it has fewer than
   * {@link PARTS_PER_WORKER} parts, not once the oldest part is back (a
   * worker ahead of the other does not wait for it); the batches finished
   * first in order are passed on meanwhile (their bytes returned). The oldest
   * is waited for only when {@link PARTS_HELD_PER_WORKER} a worker are held
   * (sent and not passed on: memory stays bounded).
   */
  private async roomForPart(): Promise<Buffer[]> {
    const parts: Buffer[] = [];
    const most = this.maxInFlight(PARTS_HELD_PER_WORKER);
    for (;;) {
      while (this.queue[0]?.done) await this.settle(this.queue.shift()!, parts);
      if (this.queue.length >= most) {
        await this.settle(this.queue.shift()!, parts);
        continue;
      }
      const out = this.queue.filter((b) => !b.done);
      // With no part out, nothing to wait for (a pool whose workers all failed fails the part sent).
      if (this.pool.leastLoad < PARTS_PER_WORKER || out.length === 0) return parts;
      await Promise.race(out.map((b) => b.settled));
    }
  }

  /** Back-pressure: settles the oldest batches (their bytes returned) until there is room for one more. */
  private async room(perWorker: number): Promise<Buffer[]> {
    const parts: Buffer[] = [];
    const most = this.maxInFlight(perWorker);
    while (this.queue.length >= most || this.queue[0]?.done) await this.settle(this.queue.shift()!, parts);
    return parts;
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
    if (batch.kind === 'items') {
      const { results, bytes } = batch.answer!;
      await this.passAll(unitsOfItems(batch.items, results), bytes, parts);
      return;
    }
    let place = batch.place;
    let answer = batch.answer!;
    if (place.first) {
      this.numbered = 0;
      this.open = undefined;
    }
    const open = this.open;
    if (open) {
      // The part before left a record open: this part is read again from that record's line (rare: old saved responses).
      this.open = undefined;
      place = { ...place, line: open.line, first: false };
      answer = await this.pool.convertPart({ ...place, bytes: concatenated(open.bytes, answer.input) });
      this.checkSignal();
    }
    if (answer.openLine !== undefined)
      this.open = {
        line: answer.openLine,
        // A copy: the part's memory takes a later part.
        bytes: Buffer.from(answer.input.subarray(lineStart(answer.input, answer.openLine - place.line))),
      };
    const base = this.numbered;
    this.numbered += answer.numbered;
    const before = parts.length;
    await this.passAll(unitsOfPart(answer, place, base, this.limits), answer.bytes, parts);
    // The part's bytes are read no more (its records were passed on); its text's, once written out (`release`).
    for (const input of new Set([batch.answer!.input.buffer, answer.input.buffer]))
      if (input instanceof SharedArrayBuffer) this.inputs.give(input);
    this.largestOutput = Math.max(this.largestOutput, answer.bytes.length);
    if (!isShared(answer.bytes)) return;
    const buffer = answer.bytes.buffer;
    let slices = 0;
    for (let i = before; i < parts.length; i++) if (parts[i]!.buffer === buffer) slices++;
    if (slices === 0) this.outputs.give(buffer as SharedArrayBuffer);
    else this.unwritten.set(buffer, slices);
  }

  /** Passes the units of a batch on in order; the worker's bytes of those written go to `parts` (slices, not copies). */
  private async passAll(units: Iterable<Unit>, bytes: Uint8Array, parts: Buffer[]): Promise<void> {
    const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Records written one after the other go on as one slice of the worker's bytes: [runStart, offset).
    let offset = 0;
    let runStart = 0;
    const endRun = (at: number): void => {
      if (at > runStart) parts.push(all.subarray(runStart, at));
    };
    for (const unit of units) {
      this.read++;
      if (unit.kind === 'problem') {
        // Loaded on first use: the workers map the records, this thread only the rare item a worker could not read.
        const { mapItem } = await import('./mapItem.js');
        const outcome = mapItem(unit.item);
        if (outcome.kind === 'rejected') await this.reject(outcome.rejection);
        continue;
      }
      const { result } = unit;
      const start = offset;
      if (result.kind === 'written') offset += result.bytes;
      // Awaited only when a callback returned a promise: most records need no turn of the event loop's microtasks.
      const passed = this.pass(unit);
      if (!(typeof passed === 'boolean' ? passed : await passed)) {
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

  /**
   * Passes a worker's result on; whether the record was written, as a
   * promise only when a callback returned one (throws a worker's failure).
   */
  private pass(unit: Extract<Unit, { kind: 'record' }>): boolean | Promise<boolean> {
    const { result, place } = unit;
    if (result.kind === 'failed') {
      const where = `${place.source}#${place.index}`;
      throw result.code === 'internal'
        ? new ToolkitError(`record ${where}: a record worker failed: ${result.message}`, 'internal')
        : new ToolkitError(result.message, result.code);
    }
    if (result.kind === 'rejected') {
      if (unit.remake) return remadeRejection(unit.record()).then((rejection) => this.refuse(rejection));
      return this.refuse(result.hadRecord ? { ...result.rejection, record: unit.record().raw } : result.rejection);
    }
    // Only a record that goes into the output takes its DOI (as in RecordSink): checked before the format's refusal.
    const before = this.dois?.meet(result.doi, result.digest, place);
    if (before) return this.refuse(duplicateDoiRejection(unit.record(), result.doi, before));
    if (result.kind === 'unwritable')
      return this.refuse(unwritableRejection(unit.record(), result.doi, result.reason, this.options.format));
    this.written++;
    const done = this.options.onWritten?.({
      item: place,
      mapped: {
        doi: result.doi,
        quadCount: result.quadCount,
        sharedKeys: result.sharedKeys,
        notes: result.notes,
        unknownFields: result.unknownFields,
        identities: result.identities,
      },
    });
    return done === undefined ? true : Promise.resolve(done).then(() => true);
  }

  /** Rejects a record: not written. */
  private async refuse(rejection: Rejection): Promise<false> {
    await this.reject(rejection);
    return false;
  }

  private async reject(rejection: Rejection): Promise<void> {
    this.rejected++;
    await this.options.onRejected?.(rejection);
  }
}
