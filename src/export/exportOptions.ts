import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { DateWindow } from '../client/dateWindows.js';
import type { HarvestOptions } from '../client/harvest.js';
import { DEFAULT_MAX_START } from '../client/searchPages.js';
import { ENDPOINTS } from '../contract/endpoints.js';
import { ToolkitError } from '../errors.js';
import { formatFromPath, formatInfo, formatsWith, isGzipPath, labelList, type FormatName } from '../formats.js';
import type { RecordValidation } from '../pipeline/RecordValidation.js';
import { escapeResolvedIri } from '../serialize/escape.js';
import type { ExportCounts, ExportIdentity } from './ExportState.js';
import { checkShardLimits, type ShardLimits } from '../output/ShardManifest.js';
import { ShardNaming } from '../output/ShardNaming.js';
import { checkDeltaOptions, usesRecordGraphs } from './exportSince.js';

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
  /** What messages call `stream` (`stdout`, say) when it cannot be written. Defaults to `the output stream`. */
  streamName?: string;
  /** Gzip the output (one gzip member per page). Defaults to whether `output` ends in `.gz`. */
  gzip?: boolean;
  /** The state file. Defaults to `<output>.state.json` (none without `output`). */
  statePath?: string;
  /** Continue the export the state file describes (starting afresh when there is none). Defaults to false. */
  resume?: boolean;
  /**
   * Start afresh although the state file says an earlier run is unfinished:
   * the output, rejects and state are replaced and what that run harvested is
   * lost. Without it (and without `resume`) such a state refuses the export
   * (code `state-mismatch`), so a forgotten `resume` loses nothing. Not with
   * `resume`. Defaults to false.
   */
  restart?: boolean;
  /**
   * Replace a finished dump of another export (another query or other options, its state says) at `output`, or a
   * non-empty file no export state describes (a `convert` output, a dump whose state was deleted). Defaults to
   * false: such a run is refused before anything is written (code `state-mismatch`), as `restart` is needed over
   * an unfinished one; the same export again replaces its finished dump.
   */
  force?: boolean;
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
   * Checks every mapped record (e.g. against SHACL shapes); a record with
   * violations is rejected like an unmappable one. Defaults to none (no check).
   */
  validation?: RecordValidation;
  /**
   * Cut the dump into shards of at most this many records, each a complete
   * document, named after `output` (`dump.nq.gz`: `dump.00001.nq.gz`, …) and
   * listed with their counts and SHA-256 in `dump.manifest.json` and in the
   * description (`metaPath`); a finished shard is never rewritten, by a
   * `resume` either (see docs/shards.md). Needs `output`. N-Quads then carry
   * no description graph (`metaGraph`): it is in the manifest and
   * `metaPath`. Defaults to none (one file).
   */
  shardRecords?: number;
  /**
   * Cut the dump into shards of at most this many bytes of text (before
   * compression; a record alone larger still makes one shard); with
   * `shardRecords`, a shard ends at whichever comes first. Needs `output`.
   * Defaults to none (one file).
   */
  shardBytes?: number;
  /**
   * A delta: harvest only the records the service lists as online on or
   * after this day (`YYYY-MM-DD`; the term `onlinedatefrom:<since>` is added
   * to the query sent). The service has no modification date: a record
   * changed after it went online is not listed again (see
   * docs/incremental.md). Each record is put in its own named graph
   * (`graphPerRecord` defaults to true), so N-Quads or JSON-LD only. Not with
   * `changesSince`. Defaults to none (every record of the query).
   */
  since?: string;
  /**
   * A delta since the last export: `since` is the day (UTC) the finished
   * export in the state file (`statePath`, default `<output>.state.json`)
   * started, when it was of the same query; its records of that day are
   * harvested again. The description says the delta was derived from that
   * export's dataset. Without a finished export there, everything is
   * harvested. Needs `output` or `statePath`; as `since` otherwise. Defaults
   * to false.
   */
  changesSince?: boolean;
  /** Called after every page. Defaults to none. */
  onProgress?: (progress: ExportProgress) => void;
  /** Clock (for provenance times and progress). Defaults to `() => new Date()`. */
  now?: () => Date;
}

/** How a job runs {@link exportRdf} (settings of the job, not of the library's user). */
export interface ExportRunSettings {
  /**
   * What the state file, the provenance and the rejects call the service.
   * Defaults to its endpoint URL (without the key). The in-process sample
   * service names itself (`sample:/meta/v2/json`): its port changes from run
   * to run, and a saved state must still be this export's.
   */
  endpointName?: string;
  /** The plan of these options ({@link planExport}), when the caller worked it out already. Defaults to working it out. */
  plan?: ExportPlan;
}

/** What an export did. */
export interface ExportSummary {
  counts: ExportCounts;
  total: number | null;
  /**
   * The query's total as the service reported it in this run (a resumed export keeps `total` of its first
   * page): lower than `total` when records disappeared from the service meanwhile. Null when this run
   * fetched no page.
   */
  totalNow: number | null;
  /** Whether this run continued a saved state. */
  resumed: boolean;
  /** Whether the state said the export was already finished (nothing was done). */
  alreadyComplete: boolean;
  elapsedMs: number;
  /** IRI of the dump in its provenance. */
  dataset: string;
  statePath: string | undefined;
  format: FormatName;
  /** With shards: the manifest that lists them; else null. */
  manifestPath: string | null;
  /** A delta (`since`, or the day `changesSince` found): its day; absent for a full export. */
  since?: string;
  /**
   * Identities the records of this run contradict, counted as `convert` counts them: one ORCID iD on two
   * names, one journal key on two names, one DOI harvested twice with different content (`IdentityConflicts`).
   */
  conflicts: number;
  /** The first 100 conflicts, one line each naming both records. */
  conflictNotes: string[];
}

/** The output format, gzip and state file of an export, its options checked. */
export interface ExportPlan {
  format: FormatName;
  gzip: boolean;
  statePath: string | undefined;
  /** With `shardRecords` or `shardBytes`: the shards' names and limits. */
  shards?: { naming: ShardNaming; limits: ShardLimits };
}

/** Checks the options of an export (a `usage` error naming the option) and works out its format, gzip and state file. */
export function planExport(options: ExportOptions): ExportPlan {
  const format = options.format ?? (options.output ? formatFromPath(options.output) : undefined) ?? 'turtle';
  const gzip = options.gzip ?? (options.output ? isGzipPath(options.output) : false);
  if (!options.output && !options.stream)
    throw new ToolkitError('an export needs an output file (`output`) or a stream (`stream`)', 'usage');
  if (options.graph && options.graphPerRecord)
    throw new ToolkitError(
      '`graph` (one graph for all records) and `graphPerRecord` (a graph for each) do not go together',
      'usage',
    );
  if (options.graph && !formatInfo(format).anyGraph)
    throw new ToolkitError(
      `\`graph\` needs ${labelList(formatsWith('anyGraph'))} output, not ${formatInfo(format).label}`,
      'usage',
    );
  checkDeltaOptions(options, format);
  if (options.graphPerRecord && !formatInfo(format).namedGraphs) {
    throw new ToolkitError(
      `\`graphPerRecord\` needs ${labelList(formatsWith('namedGraphs'))} output, not ${formatInfo(format).label}, which has no named graphs`,
      'usage',
    );
  }
  const shards = planShards(options, format, gzip);
  if (options.license !== undefined) {
    checkLicense(options.license);
    if (!options.metaPath && !(formatInfo(format).anyGraph && options.metaGraph !== false && !shards)) {
      throw new ToolkitError(
        `\`license\` is stated in the dataset description: add \`metaPath\` (or write ${labelList(formatsWith('anyGraph'))}, whose last graph is the description)`,
        'usage',
      );
    }
  }
  if (options.resume && !options.output)
    throw new ToolkitError('`resume` needs the output file of the export (`output`)', 'usage');
  if (options.restart && options.resume)
    throw new ToolkitError(
      '`resume` (continue the saved export) and `restart` (start it again) do not go together',
      'usage',
    );
  if (options.restart && !options.output)
    throw new ToolkitError('`restart` needs the output file of the export (`output`)', 'usage');
  return {
    format,
    gzip,
    statePath: options.statePath ?? (options.output ? `${options.output}.state.json` : undefined),
    ...(shards ? { shards } : {}),
  };
}

/** The shards of an export, its options checked; undefined without `shardRecords` or `shardBytes`. */
function planShards(options: ExportOptions, format: FormatName, gzip: boolean): ExportPlan['shards'] {
  const limits = checkShardLimits(options.shardRecords, options.shardBytes, options.output !== undefined);
  if (limits === undefined) return undefined;
  return { naming: new ShardNaming(options.output!, format, gzip), limits };
}

/** The options that must be the same when an export is resumed. */
export function exportIdentity(
  options: ExportOptions,
  plan: ExportPlan,
  endpoint: string,
  since: string | undefined = options.since,
): ExportIdentity {
  return {
    query: options.query,
    endpoint,
    format: plan.format,
    gzip: plan.gzip,
    pageSize: options.pageSize ?? ENDPOINTS[options.client?.endpoint ?? options.endpoint ?? 'meta-v2'].pageSizes.basic,
    maxStart: options.maxStart ?? DEFAULT_MAX_START,
    maxRecords: options.maxRecords ?? null,
    splitBy: options.splitBy ?? null,
    graph: options.graph ?? null,
    graphPerRecord: usesRecordGraphs(options),
    base: options.base ?? null,
    validate: options.validation !== undefined,
    // Only with shards: a state of an export without them stays this export's.
    ...(plan.shards
      ? { shards: { records: plan.shards.limits.records ?? null, bytes: plan.shards.limits.bytes ?? null } }
      : {}),
    ...(since !== undefined ? { since } : {}),
  };
}

/** The lock of an output: beside the file it names, links resolved (`-o link.nt` and `-o target.nt` are one output). */
export async function lockPathOf(output: string): Promise<string> {
  try {
    return `${await realpath(output)}.lock`;
  } catch {
    // A link to a dump not written yet (it gets its name when finished): the lock of the file it names.
    const target = await readlink(output).catch(() => undefined);
    if (target !== undefined) return lockPathOf(resolve(dirname(output), target));
    return join(await realpath(dirname(output)).catch(() => dirname(output)), `${basename(output)}.lock`);
  }
}

/** A usage error unless the licence is an absolute IRI every format of the description can write as it is. */
function checkLicense(license: string): void {
  const bad = (why: string, cause?: unknown) =>
    new ToolkitError(`\`license\` ${JSON.stringify(license)} ${why}`, 'usage', cause ? { cause } : {});
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(license)) throw bad('is not an absolute IRI');
  try {
    escapeResolvedIri(license);
  } catch (err) {
    if (err instanceof ToolkitError && err.code === 'serialization') throw bad(`cannot be used: ${err.message}`, err);
    throw err;
  }
}
