import type * as RDF from '@rdfjs/types';
import { rename, rm } from 'node:fs/promises';
import { ioError } from '../errors.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';
import { countSharedTriples } from '../mapping/sharedTriples.js';
import { registerTempFile, unregisterTempFile } from '../tempFiles.js';
import { CheckpointFile } from './CheckpointFile.js';
import { placeFinishedShards } from './placeFinishedShards.js';
import type { ShardEntry, ShardLimits } from './ShardManifest.js';
import type { ShardNaming } from './ShardNaming.js';

/** The shard being written, as a state file records it. */
export interface OpenShardState {
  /** Its number (from 1). */
  index: number;
  /** Bytes of its partial file committed, and their SHA-256. */
  length: number;
  sha256: string;
  /** Units written (records, or statement groups of an RDF input): what `ShardLimits.records` counts. */
  units: number;
  records: number;
  triples: number;
  /** Of `triples`, those about shared entities (see `ShardEntry.sharedTriples`); absent in a state written before they were counted. */
  sharedTriples?: number;
  /** Bytes of text written (before compression), its opening included: what `ShardLimits.bytes` counts. */
  textBytes: number;
  firstDoi: string | null;
  lastDoi: string | null;
}

/** Where a sharded output stands: the shards finished (in order) and the one being written. */
export interface ShardedState {
  done: ShardEntry[];
  current: OpenShardState | null;
}

/** Options of {@link ShardedOutput}. */
export interface ShardedOutputOptions {
  naming: ShardNaming;
  /** The record writer: its `start()` opens every shard, its `end()` closes it. */
  writer: RecordWriter;
  limits: ShardLimits;
  gzip: boolean;
  /**
   * A resumable export: fsync every commit, and keep the shard being written
   * when the process is stopped hard (a second Ctrl-C), for `resume`.
   * Defaults to false (a `.partial` file is removed then).
   */
  sync?: boolean;
  /** Commit by itself once this many bytes wait (a run that is not checkpointed). Defaults to none (only `commit()`). */
  commitEvery?: number;
}

/** Commits {@link ShardedOutput} lets run behind it at most. */
const BEHIND = 4;

/** What the cutting writer asks of the files, in order. */
type ShardEvent =
  | { kind: 'start'; text: string }
  | { kind: 'unit'; text: string; triples: number; sharedTriples: number; doi: string | null }
  | { kind: 'end'; text: string };

/**
 * An output cut into shards between records: each shard a complete document
 * of its format (the record writer's `start()` and `end()` around its
 * records), written as `<shard>.partial` and renamed to its name by
 * {@link place} once finished, so a name without `.partial` is always a
 * whole shard. Records go through {@link writer} (give it to the
 * `RecordSink`): it decides, record by record and before the record's text
 * is made, where a shard ends, so the text of every shard is the text the
 * writer makes for a document of those records alone. {@link note} adds
 * what the manifest counts; {@link flush} writes to the files. A shard is
 * opened by the first record it takes, so the last shard holds records
 * unless no shard does (an output of no record is one shard without any).
 * Where a shard ends depends only on the records: a resumed export cuts them
 * where an uninterrupted one does.
 */
export class ShardedOutput {
  /** The record writer that cuts: give it to the record pipeline. */
  readonly writer: RecordWriter;
  private readonly done: ShardEntry[];
  /** Finished shards not yet renamed to their names. */
  private unplaced: number[] = [];
  private file: CheckpointFile | undefined;
  /** The shard the files are at (events applied). */
  private current: OpenShardState | null;
  /** The commits started by {@link commitBehind}, not waited for yet, oldest first. */
  private behind: Promise<void>[] = [];
  /** What the writer decided and the files have not done yet. */
  private events: ShardEvent[] = [];
  /** The shard the writer is at: open, with its units and text bytes. */
  private cut: { open: boolean; units: number; textBytes: number };

  private constructor(
    private readonly options: ShardedOutputOptions,
    state: ShardedState,
    file: CheckpointFile | undefined,
  ) {
    this.done = [...state.done];
    this.current = state.current && { ...state.current };
    this.file = file;
    this.cut = {
      open: state.current !== null,
      units: state.current?.units ?? 0,
      textBytes: state.current?.textBytes ?? 0,
    };
    this.writer = this.cuttingWriter();
  }

  /** The names of the shards. */
  get naming(): ShardNaming {
    return this.options.naming;
  }

  /** Where the shards are cut. */
  get limits(): ShardLimits {
    return this.options.limits;
  }

  /** A new sharded output (no file is opened before the first record). */
  static create(options: ShardedOutputOptions): ShardedOutput {
    return new ShardedOutput(options, { done: [], current: null }, undefined);
  }

  /**
   * Continues a sharded output where `state` left it: every finished shard
   * checked (its size and SHA-256; one still `.partial` is put in place),
   * never rewritten; the shard being written cut back to its committed bytes.
   * A file that is not what the state says: code `state-mismatch`.
   */
  static async resume(options: ShardedOutputOptions, state: ShardedState): Promise<ShardedOutput> {
    const { naming } = options;
    await placeFinishedShards(naming, state.done);
    let file: CheckpointFile | undefined;
    if (state.current) {
      const path = naming.partialPath(state.current.index);
      file = await CheckpointFile.resume(path, state.current.length, state.current.sha256 || undefined, {
        gzip: options.gzip,
        sync: options.sync ?? false,
      });
      options.writer.continueAfter(state.current.units);
    }
    return new ShardedOutput(options, state, file);
  }

  /** Adds the statements (counted, and those `isSharedTriple`) and DOI of the record {@link writer} wrote last, for the manifest. */
  note(quads: readonly RDF.Quad[], doi: string | null): void {
    const last = this.events[this.events.length - 1];
    if (last?.kind !== 'unit') throw new Error('ShardedOutput.note() without a record written');
    last.triples = quads.length;
    last.sharedTriples = countSharedTriples(quads);
    last.doi = doi;
  }

  /** Writes statements that are no record (an RDF input's, a subject group): a unit of their own. */
  writeStatements(quads: readonly RDF.Quad[]): void {
    this.writer.write(quads);
    this.note(quads, null);
  }

  /** Writes to the files what the writer decided (opening and finishing shards); commits when `commitEvery` bytes wait. */
  async flush(): Promise<void> {
    const events = this.events;
    this.events = [];
    for (const event of events) {
      if (event.kind === 'start') await this.open(event.text);
      else if (event.kind === 'end') await this.endCurrent(event.text);
      else this.append(event);
      if (this.file && this.options.commitEvery !== undefined && this.file.pendingLength >= this.options.commitEvery)
        await this.commitBehind();
    }
  }

  /**
   * Starts a commit without waiting for it, so compressing and writing go on
   * while records are mapped; with {@link BEHIND} under way it waits for the
   * oldest first (memory stays bounded). A failure is thrown here or by the
   * next commit.
   */
  private async commitBehind(): Promise<void> {
    if (this.behind.length >= BEHIND) await this.behind.shift();
    const commit = this.file!.commit();
    commit.catch(() => undefined);
    this.behind.push(commit);
  }

  /** Writes what waits of the current shard (fsynced with `sync`). */
  async commit(): Promise<void> {
    await this.flush();
    if (!this.file || !this.current) return;
    await this.file.commit();
    this.current.length = this.file.length;
    this.current.sha256 = this.file.sha256!;
  }

  /** Where the output stands, for a state file (after a {@link commit}). */
  snapshot(): ShardedState {
    return { done: [...this.done], current: this.current && { ...this.current } };
  }

  /** Ends the last shard (the first, empty, when there was no record): every shard is then finished; returns them. */
  async finish(): Promise<ShardEntry[]> {
    const w = this.options.writer;
    if (!this.cut.open) this.events.push({ kind: 'start', text: w.start() });
    this.events.push({ kind: 'end', text: w.end() });
    this.cut = { open: false, units: 0, textBytes: 0 };
    await this.flush();
    return [...this.done];
  }

  /** Renames the finished shards to their names (after a state that lists them is on disk). */
  async place(): Promise<void> {
    const { naming } = this.options;
    for (const index of this.unplaced) {
      const partial = naming.partialPath(index);
      try {
        await rename(partial, naming.path(index));
      } catch (err) {
        throw ioError(err, naming.path(index));
      }
      unregisterTempFile(partial);
    }
    this.unplaced = [];
  }

  /** Closes the file being written (what was not committed is not on disk). */
  async close(): Promise<void> {
    await this.file?.close().catch(() => undefined);
    this.file = undefined;
  }

  /** Closes and removes every shard not put in place (a run that failed and will not be resumed). */
  async discard(): Promise<void> {
    await this.close();
    const { naming } = this.options;
    const partials = [...this.unplaced, ...(this.current ? [this.current.index] : [])];
    for (const index of partials) {
      await rm(naming.partialPath(index), { force: true });
      unregisterTempFile(naming.partialPath(index));
    }
    this.unplaced = [];
    this.current = null;
  }

  /**
   * The writer the records go through: before a record's text is made it
   * ends the shard when the shard holds `limits.records` units; when the
   * text would take the shard past `limits.bytes` (and the shard holds a
   * unit), it ends the shard and makes the text again as the new shard's
   * first (the writer's separators, JSON-LD's commas, depend on it).
   */
  private cuttingWriter(): RecordWriter {
    const w = this.options.writer;
    const { limits } = this.options;
    return {
      start: () => '',
      end: () => '',
      continueAfter: () => undefined,
      write: (quads) => {
        const before = this.cut;
        let shard = before;
        const events: ShardEvent[] = [];
        const startShard = (): void => {
          if (shard.open) events.push({ kind: 'end', text: w.end() });
          const text = w.start();
          events.push({ kind: 'start', text });
          shard = { open: true, units: 0, textBytes: Buffer.byteLength(text) };
        };
        try {
          if (!shard.open || (limits.records !== undefined && shard.units >= limits.records)) startShard();
          let text = w.write(quads);
          if (
            limits.bytes !== undefined &&
            shard.units > 0 &&
            shard.textBytes + Buffer.byteLength(text) + Buffer.byteLength(w.end()) > limits.bytes
          ) {
            startShard();
            text = w.write(quads);
          }
          this.events.push(...events, { kind: 'unit', text, triples: 0, sharedTriples: 0, doi: null });
          this.cut = { open: true, units: shard.units + 1, textBytes: shard.textBytes + Buffer.byteLength(text) };
          return text;
        } catch (err) {
          // A record the format cannot carry (rejected): the shard it would have opened is not opened.
          if (events.length > 0 && before.open) w.continueAfter(before.units);
          throw err;
        }
      },
    };
  }

  /** Opens the next shard's partial file with the writer's opening. */
  private async open(start: string): Promise<void> {
    const index = this.done.length + 1;
    const path = this.options.naming.partialPath(index);
    if (!this.options.sync) registerTempFile(path);
    this.file = await CheckpointFile.create(path, { gzip: this.options.gzip, sync: this.options.sync ?? false });
    this.file.append(start);
    this.current = {
      index,
      length: 0,
      sha256: '',
      units: 0,
      records: 0,
      triples: 0,
      sharedTriples: 0,
      textBytes: Buffer.byteLength(start),
      firstDoi: null,
      lastDoi: null,
    };
  }

  private append(unit: Extract<ShardEvent, { kind: 'unit' }>): void {
    const shard = this.current!;
    this.file!.append(unit.text);
    shard.units++;
    shard.triples += unit.triples;
    if (shard.sharedTriples !== undefined) shard.sharedTriples += unit.sharedTriples;
    shard.textBytes += Buffer.byteLength(unit.text);
    if (unit.doi !== null) {
      shard.records++;
      shard.firstDoi ??= unit.doi;
      shard.lastDoi = unit.doi;
    }
  }

  private async endCurrent(end: string): Promise<void> {
    const shard = this.current!;
    this.file!.append(end);
    // Waits for the commits under way too (a failure of one is thrown here).
    await this.file!.commit();
    this.behind = [];
    shard.length = this.file!.length;
    shard.sha256 = this.file!.sha256!;
    await this.file!.close();
    this.file = undefined;
    const shared = shard.sharedTriples !== undefined ? { sharedTriples: shard.sharedTriples } : {};
    this.done.push({
      file: this.options.naming.fileName(shard.index),
      records: shard.records,
      triples: shard.triples,
      ...shared,
      bytes: shard.length,
      sha256: shard.sha256,
      firstDoi: shard.firstDoi,
      lastDoi: shard.lastDoi,
    });
    this.unplaced.push(shard.index);
    this.current = null;
  }
}
