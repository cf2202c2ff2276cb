import type * as RDF from '@rdfjs/types';
import { existsSync } from 'node:fs';
import { DataFactory } from 'n3';
import { ApiClient } from '../client/ApiClient.js';
import { harvestPages, type HarvestCursor, type HarvestPage } from '../client/harvest.js';
import { formatInfo } from '../formats.js';
import { DoiContents } from '../pipeline/DoiContents.js';
import { IdentityConflicts } from '../pipeline/IdentityConflicts.js';
import { RecordSink, type WrittenRecord } from '../pipeline/RecordSink.js';
import { describeRejection, rejectionLine } from '../pipeline/Rejection.js';
import { DoiSet } from '../record/DoiSet.js';
import { ExportDistinct } from './ExportDistinct.js';
import { withResumeAdvice } from './resumeAdvice.js';
import { droppedConflict, takePage } from './pageDuplicates.js';
import type { ReadItem } from '../record/readRecords.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';
import { serializerFor } from '../serialize/serializers.js';
import { ExportFiles, placeFinishedOutput } from './ExportFiles.js';
import { ExportLock } from '../output/ExportLock.js';
import { type ShardEntry, shardManifest, writeManifest } from '../output/ShardManifest.js';
import { assertWritableFolder } from '../output/assertWritable.js';
import { removeIfExists } from '../output/removeIfExists.js';
import { RDF_TYPE } from '../rdf/namespaces.js';
import { savedExportState } from './savedExportState.js';
import { writeMeta } from './writeMeta.js';
import { placeFinishedShards } from '../output/placeFinishedShards.js';
import {
  type ExportOptions,
  type ExportPlan,
  type ExportRunSettings,
  type ExportSummary,
  exportIdentity,
  lockPathOf,
  planExport,
} from './exportOptions.js';
import { type ExportCounts, type ExportIdentity, type ExportState, noCounts, writeExportState } from './ExportState.js';
import { type ExportDelta, resolveDelta, sinceQuery, usesRecordGraphs } from './exportSince.js';
import { datasetIri } from './datasetIri.js';
import { provenanceQuads } from './provenance.js';

export type { ExportOptions, ExportProgress, ExportRunSettings, ExportSummary } from './exportOptions.js';

/**
 * Exports every record of a query as one RDF dump: harvests pages (pipelined,
 * de-duplicated, split into date windows when deep), passes each record
 * through the record pipeline ({@link RecordSink}) and writes it in query
 * order. With an output file the export is resumable: after every page the
 * output (and rejects and DOI side files) are fsynced and a state file is
 * replaced atomically; `resume` cuts the files back to the state, checks the
 * output's hash and goes on, so the finished file is the same as an
 * uninterrupted export's, even after `kill -9`. A run without `resume` over
 * a state that says unfinished is refused before any file is touched (code
 * `state-mismatch`), unless `restart` says to start it again.
 */
export async function exportRdf(options: ExportOptions, settings: ExportRunSettings = {}): Promise<ExportSummary> {
  const plan = settings.plan ?? planExport(options);
  const client = options.client ?? new ApiClient(options);
  // A query the key's plan (`plan`) refuses is refused before a file is touched.
  client.checkQuery(options.query);
  options = { ...options, client };
  // Locked by the output (two exports with different state files would still write one file).
  const lock = options.output ? await ExportLock.acquire(await lockPathOf(options.output)) : undefined;
  try {
    // A delta's date (and the export it follows) is read before anything is written: from the state the run replaces.
    const delta = await resolveDelta(options, plan.statePath);
    return await new ExportRun(options, plan, settings, delta).run();
  } finally {
    await lock?.release();
  }
}

/** One run of an export: the state it continues, its counts, and the loop over pages. */
class ExportRun {
  private readonly client: ApiClient;
  private readonly identity: ExportIdentity;
  private readonly dataset: string;
  private readonly now: () => Date;
  private readonly runStart: number;
  private saved: ExportState | undefined;
  private counts: ExportCounts = noCounts();
  /** Counts the distinct statements into `counts` (from those a resumed run's state saved). */
  private distinct: ExportDistinct;
  /** Works per class (each work is written once: duplicate DOIs are skipped). */
  private classes: Record<string, number> = {};
  /** The classes of the other nodes. */
  private otherClasses = new Set<string>();
  private total: number | null = null;
  /** The total the service reported in this run's pages. */
  private totalNow: number | null = null;
  private apiMessage: string | null = null;
  private startedAt = '';
  private endedAt: string | undefined;
  /** The description file written, once it is. */
  private metaWritten: string | undefined;
  private cursor: HarvestCursor = { start: 1, done: false };
  /** Identities the records of this run contradict (as `convert` finds them). */
  private readonly conflicts = new IdentityConflicts();
  /** The DOIs written in this run with their content's digest: a copy the harvest drops is compared with them. */
  private readonly contents = new DoiContents();

  private readonly options: ExportOptions;
  /** The query sent: a delta's with its `onlinedatefrom:` term. */
  private readonly querySent: string;

  constructor(
    options: ExportOptions,
    private readonly plan: ExportPlan,
    settings: ExportRunSettings,
    private readonly delta: ExportDelta,
  ) {
    this.options = options;
    this.distinct = new ExportDistinct(this.counts, usesRecordGraphs(options));
    this.client = options.client ?? new ApiClient(options);
    // Warnings (retries, rejects) can quote request URLs: never with the key.
    const warn = options.onWarning;
    if (warn) this.options = { ...options, onWarning: (message) => warn(this.client.redact(message)) };
    this.identity = exportIdentity(options, plan, settings.endpointName ?? this.client.endpointUrl, delta.since);
    this.querySent = sinceQuery(options.query, delta.since);
    this.dataset = datasetIri(this.identity);
    this.now = options.now ?? (() => new Date());
    this.runStart = this.now().getTime();
  }

  async run(): Promise<ExportSummary> {
    const { statePath, format, shards } = this.plan;
    const manifestPath = shards ? shards.naming.manifestPath : null;
    this.saved = await savedExportState(this.options, this.plan, this.identity);
    if (this.saved?.complete) {
      // A dump the run finished but had not renamed yet when it stopped gets its name now.
      if (this.options.output && !shards) await placeFinishedOutput(this.options.output);
      // A manifest or description that could not be written when the export finished (a full disk) is written now.
      await this.writeMissingManifest(this.saved);
      await this.writeMissingMeta(this.saved);
      const { counts, total } = this.saved;
      return {
        counts,
        total,
        totalNow: null,
        resumed: true,
        alreadyComplete: true,
        elapsedMs: 0,
        dataset: this.dataset,
        statePath,
        format,
        manifestPath,
        ...this.sinceOf(),
        ...this.conflicts.summary(),
      };
    }
    // A folder that is not there is refused now, not after the whole harvest.
    if (this.options.metaPath) assertWritableFolder(this.options.metaPath);
    // Shards of this export are about to replace the ones an old manifest lists.
    if (manifestPath && !this.saved) await removeIfExists(manifestPath);
    this.restore(this.saved);
    // New DOIs are queued for the side file of a resumable export only (else the queue would only grow).
    const seen = new DoiSet(1024, { queueNew: Boolean(this.options.output && statePath), stable: true });
    const writer = serializerFor(format).createWriter(this.options.graph ? { graph: this.options.graph } : {});
    const files = await ExportFiles.open(
      {
        ...this.options,
        gzip: this.plan.gzip,
        statePath,
        signal: this.options.signal,
        ...(shards ? { shards: { ...shards, writer } } : {}),
      },
      this.saved,
      seen,
    );
    try {
      await this.harvestInto(files, seen, writer);
      return {
        counts: this.counts,
        total: this.total,
        totalNow: this.totalNow,
        resumed: this.saved !== undefined,
        alreadyComplete: false,
        elapsedMs: this.now().getTime() - this.runStart,
        dataset: this.dataset,
        statePath,
        format,
        manifestPath,
        ...this.sinceOf(),
        ...this.conflicts.summary(),
      };
    } catch (err) {
      throw files.resumable ? withResumeAdvice(err, this.plan.statePath) : err;
    } finally {
      await files.close();
    }
  }

  /** The summary's `since`: a delta's day. */
  private sinceOf(): { since?: string } {
    return this.identity.since !== undefined ? { since: this.identity.since } : {};
  }

  private restore(saved: ExportState | undefined): void {
    this.startedAt = saved?.startedAt ?? this.now().toISOString();
    if (!saved) return;
    this.counts = { ...saved.counts };
    this.distinct = new ExportDistinct(this.counts, usesRecordGraphs(this.options));
    this.classes = { ...saved.classes };
    this.otherClasses = new Set(saved.otherClasses);
    this.total = saved.total;
    this.apiMessage = saved.apiMessage;
    this.cursor = saved.cursor;
  }

  /** Harvests the pages into the files, checkpointing after each, then writes the closing part and the description. */
  private async harvestInto(files: ExportFiles, seen: DoiSet, writer: RecordWriter): Promise<void> {
    const { options, counts } = this;
    const sink = this.sink(files.sharded?.writer ?? writer, files);
    if (this.saved) sink.continueAfter(counts.records);
    else await files.write(sink.start());
    const checkpoint = (complete: boolean) => files.checkpoint(seen, (written) => this.state(written, complete));
    if (!this.saved) await checkpoint(false);
    const retriesBefore = counts.retries;
    let recordsThisRun = 0;
    for await (const hp of harvestPages(this.querySent, {
      ...options,
      client: this.client,
      cursor: this.cursor,
      seen,
      alreadyHarvested: counts.records + counts.rejects,
    })) {
      this.total ??= hp.total ?? null;
      if (hp.total !== undefined && hp.total !== null) this.totalNow = hp.total;
      this.apiMessage ??= hp.page.apiMessage || null;
      const text = await this.takePage(sink, hp);
      recordsThisRun += hp.records.length;
      counts.duplicates += hp.duplicates;
      if (hp.page.records.length > 0) counts.pages++;
      counts.retries = retriesBefore + this.client.retries;
      this.cursor = hp.cursor;
      await files.write(text);
      await checkpoint(false);
      options.onProgress?.({
        counts: { ...counts },
        total: this.total,
        ...(hp.window ? { window: hp.window } : {}),
        elapsedMs: this.now().getTime() - this.runStart,
        recordsThisRun,
      });
    }
    counts.retries = retriesBefore + this.client.retries;
    this.endedAt = this.now().toISOString();
    const shards = await files.sharded?.finish();
    const prov = this.provenance(this.endedAt, shards);
    if (!files.sharded) {
      let tail = '';
      if (formatInfo(this.plan.format).anyGraph && options.metaGraph !== false) {
        const g = DataFactory.namedNode(this.dataset);
        tail += writer.write(prov.map((q) => DataFactory.quad(q.subject, q.predicate, q.object, g)));
      }
      await files.write(tail + sink.end());
    }
    await checkpoint(true);
    // The dump gets its name once the state says finished: until then a kill leaves only `<output>.partial`.
    await files.placeOutput();
    if (shards) await this.writeManifest(shards);
    const seenPath = ExportFiles.seenPathOf(this.plan.statePath);
    if (files.resumable && seenPath) await removeIfExists(seenPath);
    if (options.metaPath) {
      await writeMeta(options.metaPath, prov);
      // Noted, so that a resume writes it only when it is not there (it failed, a full disk).
      this.metaWritten = options.metaPath;
      if (files.resumable) await checkpoint(true);
    }
  }

  /** The provenance and description of the export as it stands (with its shards, when it has them). */
  private provenance(endedAt: string, shards?: readonly ShardEntry[]): RDF.Quad[] {
    const { options } = this;
    const folder = this.plan.shards?.naming.folder;
    return provenanceQuads({
      identity: this.identity,
      counts: this.counts,
      classes: this.classes,
      otherClasses: this.otherClasses,
      apiMessage: this.apiMessage,
      startedAt: this.startedAt,
      endedAt,
      ...(options.license ? { license: options.license } : {}),
      ...(shards && folder !== undefined ? { shards: { entries: shards, folder } } : {}),
      querySent: this.querySent,
      ...(this.delta.previous ? { previousDataset: this.delta.previous.dataset } : {}),
    });
  }

  /** Writes the manifest of the finished shards. */
  private async writeManifest(shards: readonly ShardEntry[]): Promise<void> {
    const { naming, limits } = this.plan.shards!;
    await writeManifest(
      naming.manifestPath,
      shardManifest({ format: this.plan.format, gzip: this.plan.gzip, limits, dataset: this.dataset, shards }),
    );
  }

  /**
   * With shards: the manifest of a finished export when it is not there (the
   * run stopped, or its write failed, after the state said finished): the
   * shards are checked and put in place first.
   */
  private async writeMissingManifest(saved: ExportState): Promise<void> {
    const shards = this.plan.shards;
    if (!shards || !saved.shards || existsSync(shards.naming.manifestPath)) return;
    await placeFinishedShards(shards.naming, saved.shards.done);
    await this.writeManifest(saved.shards.done);
  }

  /**
   * With `metaPath`: writes the description of a finished export whose state
   * says it was not written (its write failed, a full disk), the same as it
   * would have been (counts and times from the state), and notes it in the state.
   */
  private async writeMissingMeta(saved: ExportState): Promise<void> {
    const { metaPath } = this.options;
    const { statePath } = this.plan;
    if (!metaPath || !statePath || (saved.metaWritten === metaPath && existsSync(metaPath))) return;
    this.restore(saved);
    await writeMeta(metaPath, this.provenance(saved.endedAt ?? this.now().toISOString(), saved.shards?.done));
    await writeExportState(statePath, { ...saved, metaWritten: metaPath });
  }

  /** The record pipeline of this export: rejects to the rejects file, written records counted. */
  private sink(writer: RecordWriter, files: ExportFiles): RecordSink {
    const { options, counts } = this;
    return new RecordSink(writer, {
      ...(options.base ? { base: options.base } : {}),
      ...(usesRecordGraphs(options) ? { graphPerRecord: true } : {}),
      ...(options.validation ? { validation: options.validation } : {}),
      format: this.plan.format,
      // The harvest drops records whose DOI came before (counted as duplicates).
      rejectDuplicateDois: false,
      onRejected: (rejection) => {
        counts.rejects++;
        files.reject(rejectionLine(rejection));
        options.onWarning?.(`rejected: ${describeRejection(rejection)}`);
      },
      onWritten: (record) => {
        this.count(record);
        files.sharded?.note(record.mapped.quads, record.mapped.doi);
        this.conflicts.observe(record.mapped.doi, record.mapped.identities);
        this.contents.meet(record.mapped.doi, record.digest, record.item);
      },
    });
  }

  /** A page's records through the sink, the records the harvest dropped compared in their place among them. */
  private takePage(sink: RecordSink, hp: HarvestPage): Promise<string> {
    return takePage(sink, this.itemsOf(hp), hp.duplicateRecords, (dropped) => {
      const note = droppedConflict(this.contents, hp, dropped, this.identity.endpoint);
      if (note !== undefined) this.conflicts.add(note);
    });
  }

  /** A page's records as items of the record pipeline, numbered in the harvest's order. */
  private itemsOf(hp: HarvestPage): ReadItem[] {
    const before = this.counts.records + this.counts.rejects;
    return hp.records.map((raw, i) => ({ kind: 'record', raw, source: this.identity.endpoint, index: before + i + 1 }));
  }

  private count({ mapped }: WrittenRecord): void {
    this.counts.records++;
    this.counts.triples += mapped.quads.length;
    this.distinct.add(this.counts, mapped.quads);
    // Counted without remembering nodes: shared nodes (journals, persons, ...) are written again in every record that names them.
    const workClasses = new Set<string>();
    for (const q of mapped.quads) {
      if (q.predicate.value !== RDF_TYPE) continue;
      if (q.subject.equals(mapped.subject)) workClasses.add(q.object.value);
      else this.otherClasses.add(q.object.value);
    }
    for (const cls of workClasses) this.classes[cls] = (this.classes[cls] ?? 0) + 1;
  }

  private state(written: Pick<ExportState, 'output' | 'rejects' | 'seen'>, complete: boolean): ExportState {
    return {
      version: 2,
      identity: this.identity,
      cursor: this.cursor,
      counts: this.counts,
      classes: this.classes,
      otherClasses: [...this.otherClasses].sort(),
      total: this.total,
      apiMessage: this.apiMessage,
      startedAt: this.startedAt,
      ...written,
      complete,
      ...(complete && this.endedAt ? { endedAt: this.endedAt } : {}),
      ...(this.metaWritten ? { metaWritten: this.metaWritten } : {}),
      ...(this.delta.previous ? { previous: this.delta.previous } : {}),
    };
  }
}

export type { ResumeAdvice } from './resumeAdvice.js';
