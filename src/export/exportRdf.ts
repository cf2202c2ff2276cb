import type * as RDF from '@rdfjs/types';
import { ExportLock } from './ExportLock.js';
import { describeResultJson } from '../shacl/ValidationResultJson.js';
import type { ValidationResultJson } from '../shacl/ValidationResultJson.js';
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { DataFactory } from 'n3';
import { ApiClient } from '../client/ApiClient.js';
import type { DateWindow } from '../client/dateWindows.js';
import { DoiSet } from '../client/DoiSet.js';
import { harvestPages, type HarvestCursor, type HarvestOptions } from '../client/harvest.js';
import { DEFAULT_MAX_START, DEFAULT_PAGE_SIZE } from '../client/searchPages.js';
import { HttpError, MappingError, ToolkitError } from '../errors.js';
import { formatFromPath, formatInfo, isGzipPath } from '../formats.js';
import { mapRecord, type MappedRecord } from '../mapping/mapRecord.js';
import { NS } from '../mapping/namespaces.js';
import { inRecordGraph } from '../mapping/recordGraph.js';
import { normalizeRecord } from '../record/normalizeRecord.js';
import type { RawRecord } from '../record/types.js';
import type { FormatName, RecordWriter } from '../serialize/QuadSerializer.js';
import { escapeResolvedIri } from '../serialize/escape.js';
import { serializerFor } from '../serialize/serializers.js';
import { CheckpointFile } from './CheckpointFile.js';
import {
  type ExportCounts,
  type ExportIdentity,
  type ExportState,
  identityMismatch,
  readExportState,
  removeIfExists,
  writeExportState,
} from './ExportState.js';
import { datasetIri, provenanceQuads } from './provenance.js';

/** Progress of an export, reported after every page. */
export interface ExportProgress {
  counts: ExportCounts;
  /** The query's total, when known. */
  total: number | null;
  /** The date window of the last page, when the query is split. */
  window?: DateWindow;
  /** Time since this run started, in ms. */
  elapsedMs: number;
  /** Records harvested by this run (for the rate; a resumed run starts at 0). */
  recordsThisRun: number;
}

/** Options of {@link exportRdf}. */
export interface ExportOptions extends Omit<HarvestOptions, 'cursor' | 'seen' | 'alreadyHarvested'> {
  /** The service query. */
  query: string;
  /** Output format. Defaults to the output file's extension, else Turtle. */
  format?: FormatName;
  /** Output file. Defaults to none: the dump goes to `stream` (not resumable). */
  output?: string;
  /** Where the dump goes without `output`. Defaults to none (required then). */
  stream?: Writable;
  /** Gzip the output (one gzip member per page). Defaults to whether `output` ends in `.gz`. */
  gzip?: boolean;
  /** The state file. Defaults to `<output>.state.json` (none without `output`). */
  statePath?: string;
  /** Continue the export the state file describes (starting afresh when there is none). Defaults to false. */
  resume?: boolean;
  /** Also write the provenance and dataset description to this file (format from its extension, else Turtle). Defaults to none. */
  metaPath?: string;
  /** Write records that cannot be mapped here, one JSON line each (the record and the reason). Defaults to none (counted only). */
  rejectsPath?: string;
  /** Graph IRI of the records' quads (N-Quads only). Defaults to the default graph. */
  graph?: string;
  /**
   * Put each record's quads in its own named graph `<base>record/<doi>`
   * (`recordGraphIri`), so a store can replace one record as a whole; the
   * dataset description then states the graphs' pattern. N-Quads and JSON-LD
   * only; not with `graph`. Defaults to false.
   */
  graphPerRecord?: boolean;
  /**
   * IRI of the licence under which the dump may be used, written as
   * `dcterms:license` of the dataset in its description. Defaults to none
   * (no licence is stated: the service's terms are not known to the toolkit).
   */
  license?: string;
  /** Base of the IRIs minted for the nodes a record owns. Defaults to `https://w3id.org/scholarly-rdf/`. */
  base?: string;
  /** N-Quads only: append the provenance as a named graph (the dump's IRI). Defaults to true. */
  metaGraph?: boolean;
  /**
   * Checks a record's quads (e.g. against the SHACL shapes) and returns its
   * violations: lines for a person, or SHACL results as JSON (written so to
   * the rejects file, as `convert --validate` writes them); a record with
   * any is rejected like an unmappable one. Defaults to none (no check).
   */
  validateRecord?: (quads: readonly RDF.Quad[]) => Promise<readonly (string | ValidationResultJson)[]>;
  /** Called after every page. Defaults to none. */
  onProgress?: (progress: ExportProgress) => void;
  /** Clock (for provenance times and progress). Defaults to `() => new Date()`. */
  now?: () => Date;
}

/** What an export did. */
export interface ExportSummary {
  counts: ExportCounts;
  total: number | null;
  /** Whether this run continued a saved state. */
  resumed: boolean;
  /** Whether the state said the export was already finished (nothing was done). */
  alreadyComplete: boolean;
  elapsedMs: number;
  /** IRI of the dump in its provenance. */
  dataset: string;
  statePath: string | undefined;
  format: FormatName;
}

const RDF_TYPE = `${NS.rdf}type`;

/**
 * Exports every record of a query as one RDF dump: harvests pages (pipelined,
 * de-duplicated, split into date windows when deep), normalises and maps each
 * record, and writes it in query order. With an output file the export is
 * resumable: after every page the output (and rejects and DOI side files) are
 * fsynced and a state file is replaced atomically; `resume` cuts the files
 * back to the state, checks the output's hash and goes on, so the finished
 * file is the same as an uninterrupted export's, even after `kill -9`.
 */
export async function exportRdf(options: ExportOptions): Promise<ExportSummary> {
  const statePath = statePathOf(options);
  // Locked by the output (two exports with different state files would still write one file).
  const lock = options.output ? await ExportLock.acquire(await lockPathOf(options.output)) : undefined;
  try {
    return await exportLocked(options, statePath);
  } finally {
    await lock?.release();
  }
}

/** The lock of an output: beside the file it names, links resolved (`-o link.nt` and `-o target.nt` are one output). */
async function lockPathOf(output: string): Promise<string> {
  try {
    return `${await realpath(output)}.lock`;
  } catch {
    return join(await realpath(dirname(output)).catch(() => dirname(output)), `${basename(output)}.lock`);
  }
}

/** The state file of an export: `statePath`, else `<output>.state.json`, else none (a stream). */
function statePathOf(options: ExportOptions): string | undefined {
  return options.statePath ?? (options.output ? `${options.output}.state.json` : undefined);
}

async function exportLocked(options: ExportOptions, statePath: string | undefined): Promise<ExportSummary> {
  const now = options.now ?? (() => new Date());
  const runStart = now().getTime();
  const format = options.format ?? (options.output ? formatFromPath(options.output) : undefined) ?? 'turtle';
  const gzip = options.gzip ?? (options.output ? isGzipPath(options.output) : false);
  if (!options.output && !options.stream) throw new ToolkitError('exportRdf needs an output file or a stream', 'usage');
  if (options.graph && options.graphPerRecord) throw new ToolkitError('--graph (one graph for all records) and --graph-per-record (a graph for each) do not go together', 'usage');
  if (options.graph && format !== 'nquads') throw new ToolkitError(`--graph needs N-Quads output, not ${format}`, 'usage');
  if (options.graphPerRecord && format !== 'nquads' && format !== 'jsonld') {
    throw new ToolkitError(`--graph-per-record needs N-Quads or JSON-LD output, not ${formatInfo(format).label}, which has no named graphs`, 'usage');
  }
  if (options.license !== undefined) {
    checkLicense(options.license);
    if (!options.metaPath && !(format === 'nquads' && options.metaGraph !== false)) {
      throw new ToolkitError('--license is stated in the dataset description: add --meta FILE (or write N-Quads, whose last graph is the description)', 'usage');
    }
  }
  if (options.resume && !options.output) throw new ToolkitError('--resume needs an output file (-o)', 'usage');
  const client = options.client ?? new ApiClient(options);
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const identity: ExportIdentity = {
    query: options.query,
    endpoint: client.endpointUrl,
    format,
    gzip,
    pageSize,
    maxStart: options.maxStart ?? DEFAULT_MAX_START,
    maxRecords: options.maxRecords ?? null,
    splitBy: options.splitBy ?? null,
    graph: options.graph ?? null,
    graphPerRecord: options.graphPerRecord ?? false,
    base: options.base ?? null,
    validate: options.validateRecord !== undefined,
  };
  const seenPath = statePath ? `${statePath}.seen` : undefined;
  const dataset = datasetIri(identity);

  let saved: ExportState | undefined;
  if (options.resume && statePath) {
    saved = await readExportState(statePath);
    if (saved) {
      const diff = identityMismatch(saved.identity, identity);
      if (diff) throw new ToolkitError(`the saved state ${statePath} is for another export: ${diff}; use the same options, or start afresh without --resume`, 'state-mismatch');
      if (saved.complete) {
        return { counts: saved.counts, total: saved.total, resumed: true, alreadyComplete: true, elapsedMs: 0, dataset, statePath, format };
      }
    } else {
      options.onWarning?.(`no saved state in ${statePath}: starting afresh`);
    }
  } else if (statePath) {
    const earlier = await readExportState(statePath).catch(() => undefined);
    if (earlier && !earlier.complete) {
      options.onWarning?.(`an unfinished export (${earlier.counts.records} records) in ${statePath} is started again from the beginning; --resume would have continued it`);
    }
  }

  const counts: ExportCounts = saved ? { ...saved.counts } : { pages: 0, records: 0, duplicates: 0, rejects: 0, triples: 0, retries: 0 };
  // Works per class (each work is written once: duplicate DOIs are skipped), and the classes of the other nodes.
  const classes: Record<string, number> = saved ? { ...saved.classes } : {};
  const otherClasses = new Set<string>(saved?.otherClasses ?? []);
  const retriesBefore = counts.retries;
  let total = saved?.total ?? null;
  let apiMessage = saved?.apiMessage ?? null;
  const startedAt = saved?.startedAt ?? now().toISOString();
  let cursor: HarvestCursor = saved?.cursor ?? { start: 1, done: false };
  // New DOIs are queued for the side file of a resumable export only (else the queue would only grow).
  const seen = new DoiSet(1024, { queueNew: Boolean(options.output && seenPath) });

  const writer: RecordWriter = serializerFor(format).createWriter(options.graph ? { graph: options.graph } : {});
  let out: CheckpointFile | undefined;
  let rejects: CheckpointFile | undefined;
  let seenFile: CheckpointFile | undefined;
  const files: CheckpointFile[] = [];
  try {
    if (options.output) {
      if (saved) {
        out = await CheckpointFile.resume(options.output, saved.output.length, saved.output.sha256, { gzip });
        files.push(out);
        if (options.rejectsPath) {
          rejects = await CheckpointFile.resume(options.rejectsPath, saved.rejects?.path === options.rejectsPath ? saved.rejects.length : 0, undefined, { hash: false });
          files.push(rejects);
        }
        if (seenPath) {
          seenFile = await CheckpointFile.resume(seenPath, saved.seen.length, undefined, { hash: false });
          files.push(seenFile);
          seen.load(await readFile(seenPath));
        }
        writer.continueAfter(counts.records);
      } else {
        out = await CheckpointFile.create(options.output, { gzip });
        files.push(out);
        if (options.rejectsPath) {
          rejects = await CheckpointFile.create(options.rejectsPath, { hash: false });
          files.push(rejects);
        }
        if (seenPath) {
          seenFile = await CheckpointFile.create(seenPath, { hash: false });
          files.push(seenFile);
        }
        out.append(writer.start());
      }
    } else {
      if (options.rejectsPath) {
        rejects = await CheckpointFile.create(options.rejectsPath, { hash: false });
        files.push(rejects);
      }
      await writeStream(options.stream!, writer.start());
    }

    const checkpoint = async (complete: boolean) => {
      await out?.commit();
      await rejects?.commit();
      if (seenFile) {
        seenFile.append(seen.drainNew());
        await seenFile.commit();
      }
      if (!statePath || !out) return;
      const state: ExportState = {
        version: 2,
        identity,
        cursor,
        counts,
        classes,
        otherClasses: [...otherClasses].sort(),
        total,
        apiMessage,
        startedAt,
        output: { length: out.length, sha256: out.sha256! },
        rejects: rejects ? { path: rejects.path, length: rejects.length } : null,
        seen: { length: seenFile?.length ?? 0 },
        complete,
      };
      await writeExportState(statePath, state);
    };
    if (!saved) await checkpoint(false);

    let recordsThisRun = 0;
    const harvest = harvestPages(options.query, {
      ...options,
      client,
      cursor,
      seen,
      alreadyHarvested: counts.records + counts.rejects,
    });
    for await (const hp of harvest) {
      if (total === null && hp.total !== undefined) total = hp.total;
      if (apiMessage === null && hp.page.apiMessage) apiMessage = hp.page.apiMessage;
      let text = '';
      for (const raw of hp.records) {
        const mapped = mapOne(raw, options.base);
        if ('error' in mapped) {
          counts.rejects++;
          rejects?.append(`${JSON.stringify({ reason: mapped.error.message, code: mapped.error.code, record: raw })}\n`);
          options.onWarning?.(`rejected: ${mapped.error.message}`);
          continue;
        }
        if (options.validateRecord) {
          const violations = await options.validateRecord(mapped.quads);
          if (violations.length > 0) {
            counts.rejects++;
            const doi = typeof raw['doi'] === 'string' ? raw['doi'] : '?';
            const first = typeof violations[0] === 'string' ? violations[0] : describeResultJson(violations[0]!);
            const reason = `does not conform to the shapes: ${first}${violations.length > 1 ? ` (and ${violations.length - 1} more)` : ''}`;
            rejects?.append(`${JSON.stringify({ reason, code: 'validation-failed', violations, record: raw })}\n`);
            options.onWarning?.(`rejected ${doi}: ${reason}`);
            continue;
          }
        }
        try {
          text += writer.write(options.graphPerRecord ? inRecordGraph(mapped.quads, mapped.doi, options.base) : mapped.quads);
        } catch (err) {
          if (!(err instanceof ToolkitError) || err.code !== 'serialization') throw err;
          counts.rejects++;
          rejects?.append(`${JSON.stringify({ reason: err.message, code: err.code, record: raw })}\n`);
          options.onWarning?.(`rejected: ${err.message}`);
          continue;
        }
        counts.records++;
        counts.triples += mapped.quads.length;
        // Counted without remembering nodes: shared nodes (journals, persons, ...) are written again in every record that names them.
        const workClasses = new Set<string>();
        for (const q of mapped.quads) {
          if (q.predicate.value !== RDF_TYPE) continue;
          if (q.subject.equals(mapped.subject)) workClasses.add(q.object.value);
          else otherClasses.add(q.object.value);
        }
        for (const cls of workClasses) classes[cls] = (classes[cls] ?? 0) + 1;
      }
      recordsThisRun += hp.records.length;
      counts.duplicates += hp.duplicates;
      if (hp.page.records.length > 0) counts.pages++;
      counts.retries = retriesBefore + client.retries;
      cursor = hp.cursor;
      if (out) {
        out.append(text);
        await checkpoint(false);
      } else {
        await writeStream(options.stream!, text);
        await rejects?.commit();
      }
      options.onProgress?.({ counts: { ...counts }, total, ...(hp.window ? { window: hp.window } : {}), elapsedMs: now().getTime() - runStart, recordsThisRun });
    }
    counts.retries = retriesBefore + client.retries;

    const endedAt = now().toISOString();
    const prov = provenanceQuads({ identity, counts, classes, otherClasses, apiMessage, startedAt, endedAt, ...(options.license ? { license: options.license } : {}) });
    let tail = '';
    if (format === 'nquads' && options.metaGraph !== false) {
      const g = DataFactory.namedNode(dataset);
      tail += writer.write(prov.map((q) => DataFactory.quad(q.subject, q.predicate, q.object, g)));
    }
    tail += writer.end();
    if (out) {
      out.append(tail);
      await checkpoint(true);
      if (seenPath) await removeIfExists(seenPath);
    } else {
      await writeStream(options.stream!, tail);
      await rejects?.commit();
    }
    if (options.metaPath) await writeMeta(options.metaPath, prov);
    return { counts, total, resumed: saved !== undefined, alreadyComplete: false, elapsedMs: now().getTime() - runStart, dataset, statePath, format };
  } catch (err) {
    if (statePath && out && err instanceof ToolkitError && err.code !== 'state-mismatch' && err.code !== 'usage') {
      // Whether running again can help: a refused key can be replaced; a bad query or page size cannot be resumed.
      const advice =
        err.code === 'auth'
          ? 'run again with a valid key (--api-key or SCHOLARLY_API_KEY) and --resume to continue'
          : err instanceof HttpError && !err.retryable
            ? 'the same command would fail the same way; a changed query or --page-size starts afresh (without --resume)'
            : 'run the same command with --resume to continue';
      throw new ToolkitError(`${err.message}\nprogress is saved in ${statePath}: ${advice}`, err.code, { cause: err, details: { ...err.details, statePath } });
    }
    throw err;
  } finally {
    for (const f of files) await f.close().catch(() => undefined);
  }
}

/** A usage error unless the licence is an absolute IRI every format of `--meta` can write as it is. */
function checkLicense(license: string): void {
  const bad = (why: string, cause?: unknown) => new ToolkitError(`--license ${JSON.stringify(license)} ${why}`, 'usage', cause ? { cause } : {});
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(license)) throw bad('is not an absolute IRI');
  try {
    escapeResolvedIri(license);
  } catch (err) {
    if (err instanceof ToolkitError && err.code === 'serialization') throw bad(`cannot be used: ${err.message}`, err);
    throw err;
  }
}

function mapOne(raw: RawRecord, base: string | undefined): MappedRecord | { error: ToolkitError } {
  try {
    const record = normalizeRecord(raw);
    return mapRecord(record, base ? { base } : {});
  } catch (err) {
    if (err instanceof MappingError) return { error: err };
    if (err instanceof ToolkitError && (err.code === 'record-invalid' || err.code === 'serialization')) return { error: err };
    throw err;
  }
}

async function writeStream(stream: Writable, text: string): Promise<void> {
  if (text === '') return;
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
}

/** Writes the provenance to a file atomically, in the format of its extension (Turtle by default). */
async function writeMeta(path: string, quads: RDF.Quad[]): Promise<void> {
  const format = formatFromPath(path) ?? 'turtle';
  const writer = serializerFor(format).createWriter();
  const text = writer.start() + writer.write(quads) + writer.end();
  const file = await CheckpointFile.create(`${path}.tmp`, { gzip: isGzipPath(path), hash: false });
  file.append(text);
  await file.commit();
  await file.close();
  const { rename } = await import('node:fs/promises');
  await rename(`${path}.tmp`, path);
}
